// `engram log`: a store's history, newest first — consolidations, the agent's
// snapshots, rollbacks, restores, and any commit people made — each with its
// summary line and how much it changed. The same commits `git log` shows.
#include "cli/app.hpp"
#include "cli/history_output.hpp"
#include "cli/json_output.hpp"
#include "cli/store_selection.hpp"
#include "git/history.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <memory>

namespace engram::cli {

namespace {

// What `engram log` was asked to do.
struct LogOptions {
  std::optional<std::filesystem::path> store; // --store
  std::size_t limit = 0;                      // -n; 0 is every commit
  bool json = false;                          // --json
};

// Runs `engram log`.
int run_log(const Globals& globals, const LogOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const SelectedStore selected = select_store(*config, options.store);
  auto repository = git::Repository::open(selected.root);
  if (!repository) {
    fmt::print(stderr, "engram: log: {}: not an engram store ({})\n", selected.root.string(),
               repository.error());
    return k_exit_problems;
  }
  const auto entries = git::log(*repository, options.limit);
  if (options.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& entry : entries) {
      out.push_back(log_entry_json(entry));
    }
    print_json(out);
    return k_exit_ok;
  }
  for (const auto& entry : entries) {
    fmt::print("{} {} {}  ({} file{}, +{} -{})\n", short_id(entry.id),
               commit_time(entry.time, entry.offset_minutes).substr(0, 16), entry.summary,
               entry.files_changed, entry.files_changed == 1 ? "" : "s", entry.insertions,
               entry.deletions);
  }
  return k_exit_ok;
}

} // namespace

void add_log_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<LogOptions>();
  CLI::App* command = app.add_subcommand(
      "log", "List the store's commits, newest first: consolidations, the agent's snapshots, "
             "rollbacks and restores, each with its summary line and counts.");
  add_store_option(*command, options->store);
  command->add_option("-n,--max-count", options->limit, "Show at most N commits (0: all)")
      ->type_name("N");
  command->add_flag("--json", options->json,
                    "Print the commits as a JSON array (id, date, author, committer, summary, "
                    "run, files_changed, insertions, deletions)");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_log(globals, *options); }});
}

} // namespace engram::cli
