// Consolidation: one run over one store, end to end: finish what an
// interrupted run left, snapshot the agent's changes, run the rules, then
// either show the plan (dry run) or apply and commit it.
#pragma once

#include "config/config.hpp"
#include "engine/apply.hpp"
#include "engine/engine.hpp"
#include "engine/plan.hpp"
#include "engine/progress.hpp"
#include "engine/recovery.hpp"
#include "engine/session.hpp"
#include "engine/workspace.hpp"
#include "store/scan.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace engram::engine {

// What a long-running caller (the daemon, one per store) keeps of a store
// between its runs: what the last scan read, the model the last run made of
// it (its files as that run found them), and the repository open with its
// index read (a large store's index takes a while to read).
struct Kept {
  store::ScanCache scan;
  std::optional<Workspace::Base> model;
  std::optional<git::Repository> repository;
};

// What a consolidation did.
struct Outcome {
  Plan plan;
  ApplyResult applied;
  Recovery recovery;                          // what an interrupted run left, finished first
  std::optional<std::string> snapshot_commit; // the agent's changes, committed first
  std::optional<std::string> commit;          // the consolidation's own commit
  // The model of the store the plan was made from (every file, parsed). Kept
  // here so that freeing it, a sizeable share of a run on a large store, is
  // not on the way to the commit: it goes with the Outcome, and a command
  // about to exit may leave it to the exit (see cli/keep_until_exit.hpp).
  std::shared_ptr<const void> model;
  // Paths the next run told what changed must look at even if no one changes
  // them again: what this run wrote and removed, and what the snapshot left
  // uncommitted (held back, unreadable). Filled whenever `kept` was given,
  // told what changed or not: a run that looked at the whole store wrote
  // files too, and the next run may be told only what changed since.
  std::vector<std::string> look_again;
};

// Runs `rules` over the store at `root` and, unless dry, applies and commits
// the plan through a Session and a transaction (see transaction.hpp). Throws
// engram::Error when the store cannot be consolidated (no repository, git
// busy for longer than git.lock_wait_s, a commit that fails); what was
// started is then finished by the next run. `kept` (the daemon keeps one
// per store) lets the scan reuse the files that did not change since the
// last, and the run reuse the open repository; a run that throws leaves
// the repository to be opened again.
// `changed`, with `kept`: the store-relative paths a watcher saw change
// since the last run with it, plus that run's Outcome::look_again;
// the snapshot and the scan then look at those paths only (see store::scan
// and git::Repository::changes), so a one-file change costs one file, and
// the model is the last run's, updated along those paths.
// `subset`: the rules are a subset the command chose, and the commit says so
// (`consolidate(dedupe,contradictions)`, `Engram-Run: subset`).
// `progress`, when given, hears how many of the rules have run.
Outcome consolidate(const std::filesystem::path& root, const config::Settings& settings,
                    const std::vector<RuleSlot>& rules, Date today, RunKind kind, DryRun dry,
                    Kept* kept = nullptr, const std::vector<std::string>* changed = nullptr,
                    bool subset = false, Progress* progress = nullptr);

} // namespace engram::engine
