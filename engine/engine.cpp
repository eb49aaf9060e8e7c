// Engine: the rule loop. Rules are ordered deterministically so that the same
// store and clock always give the same plan.
#include "engine/engine.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace engram::engine {

std::string_view phase_name(Phase phase) {
  switch (phase) {
  case Phase::guard:
    return "guard";
  case Phase::decay:
    return "decay";
  case Phase::merge:
    return "merge";
  case Phase::resolve:
    return "resolve";
  case Phase::prune:
    return "prune";
  case Phase::promote:
    return "promote";
  case Phase::index:
    return "index";
  }
  return "unknown";
}

namespace {

bool enabled(const config::Settings& settings, const std::string& rule) {
  const auto& values = settings.values();
  const auto it = values.find("rules." + rule + ".enabled");
  if (it == values.end()) {
    return true; // a plugin rule without a table is on
  }
  const auto* on = std::get_if<bool>(&it->second);
  return on == nullptr || *on;
}

// Why a rule that would lose lines fails ("" when it loses none): the
// first few, as `path:line: "text"`.
std::string lost_lines_failure(const std::vector<LostLine>& lost) {
  if (lost.empty()) {
    return {};
  }
  constexpr std::size_t k_shown = 3;
  std::string named;
  for (std::size_t i = 0; i < lost.size() && i < k_shown; ++i) {
    named += fmt::format("{}{}:{}: \"{}\"", i == 0 ? "" : "; ", lost[i].path, lost[i].line,
                         lost[i].text);
  }
  return fmt::format("it would lose {} line{} the agent wrote ({}{}); every file is left as it was",
                     lost.size(), lost.size() == 1 ? "" : "s", named,
                     lost.size() > k_shown ? "; …" : "");
}

} // namespace

Plan run_rules(Workspace& workspace, std::vector<RuleSlot> rules, const config::Settings& settings,
               RunKind kind, Progress* progress) {
  std::stable_sort(rules.begin(), rules.end(), [](const RuleSlot& a, const RuleSlot& b) {
    return std::tie(a.phase, a.name) < std::tie(b.phase, b.name);
  });
  std::erase_if(rules, [&](const RuleSlot& slot) {
    return !enabled(settings, slot.name) || (kind == RunKind::lightweight && !slot.lightweight);
  });
  std::vector<std::string> ran;
  std::vector<std::string> failed;
  workspace.report_progress_to(progress); // a rule's own, within its step
  for (const auto& slot : rules) {
    if (progress != nullptr) {
      progress->update("rule " + slot.name, ran.size() + failed.size(), rules.size(), "rules");
    }
    workspace.checkpoint();
    workspace.begin_rule(slot.name);
    std::string failure;
    const auto started = std::chrono::steady_clock::now();
    try {
      slot.rule->run(workspace);
    } catch (const std::exception& e) {
      failure = e.what();
    } catch (...) {
      failure = "an exception that is not a std::exception";
    }
    if (failure.empty()) {
      failure = lost_lines_failure(workspace.lost_since_checkpoint());
    }
    // How long each rule takes, for whoever profiles a large store (--log-level debug).
    spdlog::debug(
        "rule {} ran in {:.1f} ms", slot.name,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count());
    if (!failure.empty()) {
      workspace.restore();
      spdlog::error("rule {} failed, its changes are discarded: {}", slot.name, failure);
      workspace.record(Action{slot.name, "failed", "", "", "", failure});
      failed.push_back(slot.name);
      continue;
    }
    ran.push_back(slot.name);
  }
  workspace.report_progress_to(nullptr);
  if (progress != nullptr) {
    progress->update("planned", rules.size(), rules.size(), "rules");
  }
  Plan plan = workspace.plan();
  plan.kind = kind;
  plan.rules = std::move(ran);
  plan.failed_rules = std::move(failed);
  return plan;
}

} // namespace engram::engine
