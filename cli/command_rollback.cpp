// `engram rollback REV`: undoes one commit — a consolidation, a snapshot, a
// restore, a rollback — with a new commit that reverts it. History is never
// rewritten; when later changes touched the same lines it stops, names the
// files, and changes nothing.
#include "base/error.hpp"
#include "cli/app.hpp"
#include "cli/history_output.hpp"
#include "cli/json_output.hpp"
#include "cli/store_selection.hpp"
#include "engine/undo.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <memory>

namespace engram::cli {

namespace {

// What `engram rollback` was asked to do.
struct RollbackOptions {
  std::optional<std::filesystem::path> store; // --store
  std::string rev;                            // REV
  bool json = false;                          // --json
  bool dry_run = false;                       // --dry-run
};

// Prints what a rollback did, for people; files it had to leave go to stderr.
void print_rollback(const engine::Undone& undone) {
  print_recovery(undone.recovery);
  if (undone.snapshot) {
    fmt::print("committed the agent's changes first as {}\n", short_id(undone.snapshot->commit));
  }
  const auto& applied = undone.committed.applied;
  if (undone.committed.commit) {
    fmt::print("rolled back {} ({}) in commit {}: {} written, {} removed\n",
               short_id(undone.target), undone.target_summary, short_id(*undone.committed.commit),
               applied.written.size(), applied.removed.size());
  } else if (applied.deferred.empty()) {
    fmt::print("nothing to roll back: the store already undoes {} ({})\n", short_id(undone.target),
               undone.target_summary);
  }
  for (const auto& path : applied.deferred) {
    fmt::print(stderr,
               "engram: rollback: {} changed while engram worked and was left as it is; "
               "run the rollback again\n",
               path);
  }
}

// Runs `engram rollback`.
int run_rollback(const Globals& globals, const RollbackOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const SelectedStore selected = select_store(*config, options.store);
  const auto dry = options.dry_run ? engine::DryRun::yes : engine::DryRun::no;
  engine::Undone undone;
  try {
    undone = engine::rollback(selected.root, selected.settings, options.rev, dry);
  } catch (const Error& error) {
    fmt::print(stderr, "engram: rollback: {}\n", error.what());
    return k_exit_problems;
  }
  if (options.json) {
    print_json(undone_json(undone, dry));
  } else if (dry == engine::DryRun::yes) {
    print_undo_dry_run(undone, "roll back");
  } else {
    print_rollback(undone);
  }
  return undone.committed.applied.deferred.empty() ? k_exit_ok : k_exit_problems;
}

} // namespace

void add_rollback_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<RollbackOptions>();
  CLI::App* command = app.add_subcommand(
      "rollback", "Undo one commit (a consolidation, a snapshot, …) with a new commit that "
                  "reverts it. Stops and changes nothing when later changes touched the same "
                  "lines.");
  command->add_option("REV", options->rev, "The commit to undo: an id or prefix, HEAD, HEAD~2")
      ->required();
  add_store_option(*command, options->store);
  command->add_flag("--json", options->json, "Print what was done as JSON");
  command->add_flag("--dry-run", options->dry_run,
                    "Print the diff it would apply against the last commit; write nothing");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_rollback(globals, *options); }});
}

} // namespace engram::cli
