// `engram health`: the memory-consolidation seed's health report. Totals by
// layer and type, ages, unused and low-effectiveness memories, orphans, guard
// headroom, diagnostics and the last consolidation are read from the store;
// likely duplicates, contradictions, stale references, what forgetting would
// archive and what promotion would change in CORE.md are what a dry run of
// the rules would do — the same plan `engram consolidate --dry-run` makes,
// never a second implementation of the rules. JSON with --json, or Markdown
// rendered from the same JSON (health_markdown.cpp).
#include "base/error.hpp"
#include "cli/app.hpp"
#include "cli/health_markdown.hpp"
#include "cli/json_output.hpp"
#include "cli/rule_plugins.hpp"
#include "cli/store_selection.hpp"
#include "engine/consolidation.hpp"
#include "engine/guards.hpp"
#include "engine/holds.hpp"
#include "git/history.hpp"
#include "git/repository.hpp"
#include "store/tags.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

namespace engram::cli {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// What `engram health` was asked to do.
struct HealthOptions {
  std::optional<fs::path> store;  // --store
  bool json = false;              // --json
  std::optional<std::string> now; // --now YYYY-MM-DD
};

// The record's actions of one rule and verb, as JSON objects.
Json actions_of(const engine::Plan& plan, std::string_view rule,
                std::initializer_list<std::string_view> verbs) {
  Json out = Json::array();
  for (const auto& action : plan.record) {
    if (action.rule == rule &&
        std::find(verbs.begin(), verbs.end(), action.action) != verbs.end()) {
      Json item = {{"action", action.action}, {"source", action.source}, {"target", action.target}};
      if (!action.claim.empty()) {
        item["claim"] = action.claim;
      }
      item["reason"] = action.reason;
      out.push_back(std::move(item));
    }
  }
  return out;
}

// A number field of a memory (`uses`, `helpful`), when it is one.
std::optional<double> number_field(const store::MemoryFile& file, std::string_view key) {
  const auto text = file.field(key);
  if (!text) {
    return std::nullopt;
  }
  try {
    std::size_t used = 0;
    const double value = std::stod(*text, &used);
    return used == text->size() ? std::optional(value) : std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The holds in force, for the report.
Json holds_json(const std::vector<engine::Hold>& holds) {
  Json out = Json::array();
  for (const auto& hold : holds) {
    out.push_back({{"undo", hold.undo}, {"summary", hold.summary}, {"paths", hold.paths}});
  }
  return out;
}

// Adds the report's totals, ages, unused and ineffective memories.
void add_totals(Json& report, const store::Snapshot& snapshot, const Date& today,
                const config::Settings& settings) {
  const Layer knowledge[] = {Layer::episodic, Layer::semantic, Layer::procedural, Layer::reference};
  Json layers = Json::object();
  std::map<std::string, std::size_t> types;
  std::int64_t age_sum = 0;
  std::size_t aged = 0;
  const auto unused_days = settings.get_int("rules.forgetting.unused_days");
  const auto min_helpful = settings.get_real("rules.forgetting.min_helpful");
  Json unused = Json::array();
  Json ineffective = Json::array();
  std::size_t memories = 0;
  for (const Layer layer : store::k_all_layers) {
    layers[std::string(store::layer_name(layer))] = snapshot.in(layer).size();
  }
  for (const Layer layer : knowledge) {
    for (const store::Entry* entry : snapshot.in(layer)) {
      ++memories;
      const auto path = entry->relative.generic_string();
      ++types[entry->file->type().value_or("(none)")];
      if (const auto created = entry->file->date("created")) {
        age_sum += today.days_since(*created);
        ++aged;
      }
      const auto accessed = entry->file->date("last-accessed");
      if (layer != Layer::episodic && accessed && today.days_since(*accessed) > unused_days) {
        unused.push_back({{"path", path}, {"last_accessed", accessed->to_string()}});
      }
      // Effectiveness as the forgetting rule measures it: helpful / (helpful + unhelpful).
      const auto helpful = number_field(*entry->file, "helpful").value_or(0);
      const auto unhelpful = number_field(*entry->file, "unhelpful").value_or(0);
      if (helpful + unhelpful > 0 && helpful / (helpful + unhelpful) < min_helpful) {
        ineffective.push_back({{"path", path}, {"effectiveness", helpful / (helpful + unhelpful)}});
      }
    }
  }
  report["totals"] = {{"memories", memories}, {"layers", layers}, {"types", types}};
  report["average_age_days"] =
      aged == 0 ? Json(nullptr) : Json(static_cast<double>(age_sum) / static_cast<double>(aged));
  report["unused"] = {{"days", unused_days}, {"count", unused.size()}, {"files", unused}};
  report["low_effectiveness"] = {
      {"below", min_helpful}, {"count", ineffective.size()}, {"files", ineffective}};
}

// Whether the dry run ran `rule`.
bool ran(const engine::Plan& plan, std::string_view rule) {
  return std::find(plan.rules.begin(), plan.rules.end(), rule) != plan.rules.end();
}

// Why `rule` said it skipped its work in the dry run, or null when it did not.
Json skipped_reason(const engine::Plan& plan, std::string_view rule) {
  const auto said = actions_of(plan, rule, {"skipped"});
  return said.empty() ? Json(nullptr) : said.front()["reason"];
}

// Adds what the dry run's plan says of duplicates, contradictions and stale references.
void add_checks(Json& report, const engine::Plan& plan, const config::Settings& settings) {
  report["duplicates"] = {{"checked", ran(plan, "dedupe")},
                          {"would_merge", actions_of(plan, "dedupe", {"merged"})},
                          {"not_merged", actions_of(plan, "dedupe", {"flagged"})}};
  report["contradictions"] = {
      {"checked", ran(plan, "contradictions")},
      {"would_supersede", actions_of(plan, "contradictions", {"superseded"})},
      {"not_changed", actions_of(plan, "contradictions", {"flagged"})},
      {"uncertain", actions_of(plan, "contradictions", {"uncertain"})}};
  const auto project_root = settings.get_string("rules.stale-refs.project_root");
  Json partly = Json::array();
  Json fully_kept = Json::array();
  for (auto& item : actions_of(plan, "stale-refs", {"flagged"})) {
    (item["reason"].get<std::string>().starts_with("partly") ? partly : fully_kept).push_back(item);
  }
  report["stale_references"] = {
      {"checked", ran(plan, "stale-refs") && !project_root.empty()},
      {"project_root", project_root.empty() ? Json(nullptr) : Json(project_root)},
      {"would_archive", actions_of(plan, "stale-refs", {"archived"})},
      {"partly_stale", partly},
      {"fully_stale_kept", fully_kept}};
}

// Adds what forgetting would archive (and what protects the rest), and what
// promotion would change in CORE.md.
void add_forgetting_and_promotion(Json& report, const SelectedStore& selected,
                                  const engine::Plan& plan) {
  const auto& settings = selected.settings;
  report["forgetting"] = {
      {"checked", ran(plan, "forgetting") && skipped_reason(plan, "forgetting").is_null()},
      {"not_checked_because", skipped_reason(plan, "forgetting")},
      {"would_archive", actions_of(plan, "forgetting", {"archived"})},
      {"protected", actions_of(plan, "forgetting", {"flagged"})}};
  report["promotion"] = {{"checked", ran(plan, "promotion")},
                         {"core", selected.layout.core},
                         {"would_promote", actions_of(plan, "promotion", {"promoted"})},
                         {"would_drop", actions_of(plan, "promotion", {"dropped"})},
                         {"would_rebuild", !actions_of(plan, "promotion", {"rebuilt"}).empty()},
                         {"limits",
                          {{"deep_truths", settings.get_int("guard.deep_truths")},
                           {"core_block_chars", settings.get_int("guard.core_block_chars")},
                           {"core_chars", settings.get_int("guard.core_chars")}}}};
}

// The orphans: memories with no `related` link either way and no tag shared
// with any other memory.
Json orphans_of(const store::Snapshot& snapshot) {
  std::map<std::string, std::size_t> tag_files;
  std::set<std::string> linked;
  std::vector<std::pair<std::string, std::vector<std::string>>> candidates;
  for (const Layer layer : {Layer::semantic, Layer::procedural, Layer::reference}) {
    for (const store::Entry* entry : snapshot.in(layer)) {
      std::set<std::string> canon;
      for (const auto& tag : entry->file->tags()) {
        canon.insert(store::canonical_tag(tag));
      }
      for (const auto& tag : canon) {
        ++tag_files[tag];
      }
      const auto path = entry->relative.generic_string();
      const auto related = entry->file->related();
      if (!related.empty()) {
        linked.insert(path);
        for (const auto& link : related) {
          linked.insert(link);
        }
      }
      candidates.emplace_back(path, std::vector<std::string>(canon.begin(), canon.end()));
    }
  }
  Json orphans = Json::array();
  for (const auto& [path, canon] : candidates) {
    const auto name = path.substr(path.rfind('/') + 1);
    const auto stem = name.substr(0, name.size() - 3);
    const bool shares = std::any_of(canon.begin(), canon.end(),
                                    [&](const std::string& tag) { return tag_files[tag] > 1; });
    if (!shares && !linked.contains(path) && !linked.contains(name) && !linked.contains(stem)) {
      orphans.push_back(path);
    }
  }
  return orphans;
}

// The guards and their headroom.
Json guards_of(const SelectedStore& selected, const store::Snapshot& snapshot) {
  Json guards = Json::array();
  for (const auto& path : engine::guarded_paths(selected.layout)) {
    const store::Entry* entry = snapshot.find(path);
    for (const auto& reading :
         engine::read_guards(path, entry ? std::optional(entry->file->render()) : std::nullopt,
                             selected.layout, selected.settings)) {
      guards.push_back({{"path", reading.path},
                        {"present", reading.present},
                        {"size", reading.size},
                        {"unit", reading.unit},
                        {"limit", reading.limit},
                        {"headroom", reading.limit - static_cast<std::int64_t>(reading.size)}});
    }
  }
  return guards;
}

// The last consolidation, from the history; null when none ran.
Json last_consolidation(const fs::path& root) {
  if (auto repository = git::Repository::open(root)) {
    for (const auto& entry : git::log(*repository, 200)) {
      if (entry.run == "full" || entry.run == "lightweight") {
        return {{"commit", entry.id},
                {"date", Date::from_days(entry.time / 86'400).to_string()},
                {"run", entry.run},
                {"summary", entry.summary}};
      }
    }
  }
  return nullptr;
}

// Recommendations, from what the report found.
Json recommendations(const Json& report) {
  Json advice = Json::array();
  if (!report["duplicates"]["would_merge"].empty() ||
      !report["contradictions"]["would_supersede"].empty() ||
      !report["stale_references"]["would_archive"].empty()) {
    advice.push_back("Run `engram consolidate`: it would merge, supersede or archive what is "
                     "listed above (`--dry-run` shows the diff).");
  }
  if (!report["forgetting"]["would_archive"].empty() ||
      !report["promotion"]["would_promote"].empty() || !report["promotion"]["would_drop"].empty()) {
    advice.push_back("Run `engram consolidate`: it would forget or promote what is listed above.");
  }
  if (!report["duplicates"]["not_merged"].empty()) {
    advice.push_back("Review the likely duplicates that are not merged automatically.");
  }
  if (!report["contradictions"]["uncertain"].empty()) {
    advice.push_back("Review the pairs engram could not judge: both claims are kept, and one may "
                     "have replaced the other.");
  }
  if (!report["holds"].empty()) {
    advice.push_back("Undos hold files (listed under Holds): the rules leave them as they are "
                     "until one of them changes.");
  }
  if (!report["contradictions"]["not_changed"].empty()) {
    advice.push_back("Review the contradicted memories that are protected from automatic edits.");
  }
  const auto& stale = report["stale_references"];
  if (stale["project_root"].is_null()) {
    advice.push_back("Set rules.stale-refs.project_root to check memories' file and symbol "
                     "references against the project.");
  } else if (!stale["partly_stale"].empty() || !stale["fully_stale_kept"].empty()) {
    advice.push_back("Review the memories whose references are partly or recently gone.");
  }
  if (!report["orphans"]["files"].empty()) {
    advice.push_back("Relate or tag the orphaned memories, or let forgetting retire them.");
  }
  for (const auto& g : report["guards"]) {
    if (g["headroom"].get<std::int64_t>() < 0) {
      advice.push_back(fmt::format("{} is over its guard ({} of {} {}): run a consolidation.",
                                   g["path"].get<std::string>(), g["size"].get<std::size_t>(),
                                   g["limit"].get<std::int64_t>(), g["unit"].get<std::string>()));
    }
  }
  if (!report["diagnostics"].empty()) {
    advice.push_back("Fix the files `engram check` lists; engram leaves them alone until then.");
  }
  if (report["last_consolidation"].is_null()) {
    advice.push_back("No consolidation has run yet: run `engram consolidate`.");
  }
  if (advice.empty()) {
    advice.push_back(fmt::format("All {} memories look healthy; nothing to do.",
                                 report["totals"]["memories"].get<std::size_t>()));
  }
  return advice;
}

// Gathers the report as JSON; the Markdown is rendered from it.
Json gather(const SelectedStore& selected, const Date& today, const engine::Plan& plan,
            const std::vector<std::string>& rules) {
  const auto& settings = selected.settings;
  const store::Snapshot snapshot = store::scan(selected.root, selected.layout, selected.limits);
  Json report;
  report["store"] = selected.root.string();
  report["today"] = today.to_string();
  add_totals(report, snapshot, today, settings);
  // What the rules would do: the dry run's plan.
  add_checks(report, plan, settings);
  add_forgetting_and_promotion(report, selected, plan);
  const Json orphans = orphans_of(snapshot);
  report["orphans"] = {{"count", orphans.size()}, {"files", orphans}};
  report["guards"] = guards_of(selected, snapshot);
  Json diagnostics = Json::array();
  for (const auto& diagnostic : snapshot.diagnostics) {
    diagnostics.push_back(diagnostic.to_string());
  }
  report["diagnostics"] = diagnostics;
  report["last_consolidation"] = last_consolidation(selected.root);
  report["holds"] = holds_json(engine::holds_at(selected.root));
  report["rules"] = rules;
  report["dry_run_changes"] = plan.changes.size();
  report["recommendations"] = recommendations(report);
  return report;
}

// Runs `engram health`.
int run_health(const Globals& globals, const HealthOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const auto today_or_not = today_from(options.now, "health");
  if (!today_or_not) {
    return k_exit_usage;
  }
  const SelectedStore selected = select_store(*config, options.store);
  if (!fs::is_directory(selected.root)) {
    fmt::print(stderr, "engram: health: no store at {}\n", selected.root.string());
    return k_exit_problems;
  }
  plugins::Host host;
  load_rule_plugins(host, *config);
  engine::Outcome outcome;
  try {
    // The same dry run `engram consolidate --dry-run` makes: a full one, every rule.
    outcome = engine::consolidate(selected.root, selected.settings, host.slots(), *today_or_not,
                                  RunKind::full, engine::DryRun::yes);
  } catch (const Error& error) {
    fmt::print(stderr, "engram: health: {}\n", error.what());
    return k_exit_problems;
  }
  const auto report = gather(selected, *today_or_not, outcome.plan, outcome.plan.rules);
  if (options.json) {
    print_json(report);
  } else {
    fmt::print("{}", detail::to_markdown(report));
  }
  return k_exit_ok;
}

} // namespace

void add_health_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<HealthOptions>();
  CLI::App* command = app.add_subcommand(
      "health", "Report a store's health: totals, ages, unused memories, likely duplicates, "
                "contradictions and stale references (what a dry run would do), orphans, guard "
                "headroom, problems, the last consolidation and recommendations");
  add_store_option(*command, options->store);
  command->add_flag("--json", options->json, "Print one JSON object instead of Markdown");
  command->add_option("--now", options->now, "Take this date as today")->type_name("YYYY-MM-DD");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_health(globals, *options); }});
}

} // namespace engram::cli
