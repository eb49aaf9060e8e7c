// `engram restore REV -- PATH…`: brings files back as they were at a commit,
// as one new commit. It writes before anything else and removes nothing: a
// file added since REV stays.
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

// What `engram restore` was asked to do.
struct RestoreOptions {
  std::optional<std::filesystem::path> store; // --store
  std::string rev;                            // REV
  std::vector<std::string> paths;             // PATH…
  bool json = false;                          // --json
  bool dry_run = false;                       // --dry-run
};

// Runs `engram restore`.
int run_restore(const Globals& globals, const RestoreOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const SelectedStore selected = select_store(*config, options.store);
  const auto dry = options.dry_run ? engine::DryRun::yes : engine::DryRun::no;
  engine::Undone undone;
  try {
    undone = engine::restore(selected.root, selected.settings, options.rev, options.paths, dry);
  } catch (const Error& error) {
    fmt::print(stderr, "engram: restore: {}\n", error.what());
    return k_exit_problems;
  }
  if (options.json) {
    print_json(undone_json(undone, dry));
    return undone.committed.applied.deferred.empty() ? k_exit_ok : k_exit_problems;
  }
  if (dry == engine::DryRun::yes) {
    print_undo_dry_run(undone, "restore");
    return k_exit_ok;
  }
  print_recovery(undone.recovery);
  if (undone.snapshot) {
    fmt::print("committed the agent's changes first as {}\n", short_id(undone.snapshot->commit));
  }
  const auto& applied = undone.committed.applied;
  if (!undone.committed.commit) {
    fmt::print("nothing to restore: the files already are as at {}\n", short_id(undone.target));
  } else {
    fmt::print("restored {} file{} as at {} in commit {}\n", applied.written.size(),
               applied.written.size() == 1 ? "" : "s", short_id(undone.target),
               short_id(*undone.committed.commit));
  }
  for (const auto& path : applied.deferred) {
    fmt::print(stderr,
               "engram: {} changed while engram worked and was left as it is; run the "
               "command again\n",
               path);
  }
  return applied.deferred.empty() ? k_exit_ok : k_exit_problems;
}

} // namespace

void add_restore_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<RestoreOptions>();
  CLI::App* command = app.add_subcommand(
      "restore", "Bring files back as they were at a commit, as a new commit: engram restore "
                 "REV -- PATH... (a folder means every file in it; files added since are kept).");
  command->add_option("REV", options->rev, "The commit to take the files from")->required();
  command
      ->add_option("PATH", options->paths,
                   "Files or folders, relative to the store (or absolute inside it)")
      ->required();
  add_store_option(*command, options->store);
  command->add_flag("--json", options->json, "Print what was done as JSON");
  command->add_flag("--dry-run", options->dry_run,
                    "Print the diff it would apply against the last commit; write nothing");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_restore(globals, *options); }});
}

} // namespace engram::cli
