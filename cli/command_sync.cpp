// `engram sync`: one round of sharing the store through `git.remote` by hand:
// fetch, merge claim by claim, make the generated files again, push. The
// daemon does the same around its consolidations when `git.sync` is on.
#include "base/error.hpp"
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "cli/rule_plugins.hpp"
#include "cli/store_selection.hpp"
#include "engine/consolidation.hpp"
#include "engine/sync.hpp"
#include "plugins/host.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace engram::cli {

namespace {

// What `engram sync` was asked to do.
struct SyncOptions {
  std::optional<std::filesystem::path> store; // --store
  std::optional<std::string> now;             // --now YYYY-MM-DD
  bool json = false;                          // --json
};

// The round as JSON: one object, the record included.
void print_synced_json(const engine::Synced& synced) {
  nlohmann::json actions = nlohmann::json::array();
  for (const auto& action : synced.record) {
    actions.push_back({{"rule", action.rule},
                       {"action", action.action},
                       {"claim", action.claim},
                       {"source", action.source},
                       {"target", action.target},
                       {"reason", action.reason}});
  }
  const nlohmann::json json{
      {"remote", synced.remote},
      {"branch", synced.branch},
      {"fetched", synced.fetched ? nlohmann::json(*synced.fetched) : nlohmann::json(nullptr)},
      {"merge", synced.merge},
      {"commit", synced.commit ? nlohmann::json(*synced.commit) : nlohmann::json(nullptr)},
      {"kept_beside", synced.kept_beside},
      {"pushed", synced.pushed},
      {"ahead", synced.ahead},
      {"behind", synced.behind},
      {"problem", synced.problem},
      {"actions", actions}};
  print_json(json);
}

// The round in words, on standard error as the other commands report.
void print_text(const engine::Synced& synced) {
  if (!synced.merge.empty()) {
    fmt::print(stderr, "engram: sync: {} {} from {} ({}): {} merge action{}\n", synced.merge,
               synced.commit ? synced.commit->substr(0, 12) : "", synced.remote, synced.branch,
               synced.record.size(), synced.record.size() == 1 ? "" : "s");
  }
  for (const auto& path : synced.kept_beside) {
    fmt::print(stderr, "engram: sync: {}: the remote's copy, kept beside ours\n", path);
  }
  if (synced.pushed) {
    fmt::print(stderr, "engram: sync: pushed to {} ({})\n", synced.remote, synced.branch);
  }
  if (!synced.problem.empty()) {
    fmt::print(stderr, "engram: sync: {}\n", synced.problem);
  } else if (synced.merge.empty() && !synced.pushed) {
    fmt::print(stderr, "engram: sync: {} ({}) and the store agree\n", synced.remote, synced.branch);
  }
}

// Runs `engram sync`.
int run_sync(const Globals& globals, const SyncOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const auto today = today_from(options.now, "sync");
  if (!today) {
    return k_exit_usage;
  }
  const SelectedStore selected = select_store(*config, options.store);
  const auto host = std::make_shared<plugins::Host>();
  load_rule_plugins(*host, *config);
  const auto rules = host->slots();
  engine::Synced synced;
  try {
    synced = engine::sync(selected.root, selected.settings, *today, [&] {
      (void)engine::consolidate(selected.root, selected.settings, rules, *today,
                                RunKind::lightweight, engine::DryRun::no);
    });
  } catch (const Error& error) {
    fmt::print(stderr, "engram: sync: {}\n", error.what());
    return k_exit_problems;
  }
  if (options.json) {
    print_synced_json(synced);
  } else {
    print_text(synced);
  }
  return synced.problem.empty() ? k_exit_ok : k_exit_problems;
}

} // namespace

void add_sync_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<SyncOptions>();
  CLI::App* command = app.add_subcommand(
      "sync", "Share the store through git.remote now: fetch, merge claim by claim, push "
              "(never forced).");
  add_store_option(*command, options->store);
  command->add_option("--now", options->now, "Date superseded markers as if today were DATE")
      ->type_name("DATE");
  command->add_flag("--json", options->json, "Print the round as JSON");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_sync(globals, *options); }});
}

} // namespace engram::cli
