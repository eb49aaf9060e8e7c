// Transaction: one change to a store, from its plan to its commit, ordered so
// that a crash at any point can be finished by recovery and loses nothing:
//   1. every new content goes into git's object database (fsynced);
//   2. the working state (.engram/pending.json) names each file's old and new
//      content, and is fsynced;                        fault point after-pending
//   3. the files are written, each through a temporary file and a rename;
//                                      before-rename-N, after-write-N
//   4. then, only when every write landed, the removals;  before-remove, after-remove-N
//   5. one commit of exactly what was written and removed;  before-commit,
//                                      after-index-write, after-commit
//   6. the working state is cleared.
// Consolidations, rollbacks and restores all go through it.
#pragma once

#include "engine/apply.hpp"
#include "engine/message.hpp"
#include "engine/pending.hpp"
#include "engine/plan.hpp"
#include "engine/session.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace engram::engine {

// What a transaction did.
struct Committed {
  ApplyResult applied;               // written, removed, deferred
  std::optional<std::string> commit; // nullopt when nothing landed (or HEAD held it already)
  std::vector<std::string> carried;  // files given what a writer added to them after their
                                     // replacement (replaced_files.hpp): the agent's, uncommitted
};

// The commit's message and note for what was applied (deferred files are
// listed in it): a function of `applied` alone, asked once when everything
// was applied.
using MessageFor = std::function<CommitText(const ApplyResult& applied)>;

// Applies `changes` (writes first, then removals, as a Plan orders them) in
// the session's store and commits them with `message(applied)` by engram,
// its note on the commit as git::k_notes_ref's.
// `pending` gives the operation and, for a consolidation, its record; the
// files are filled in here. Throws engram::Error; the working state then stays
// for the next run's recovery to finish.
Committed apply_and_commit(Session& session, const std::vector<FileChange>& changes,
                           Pending pending, const MessageFor& message);

} // namespace engram::engine
