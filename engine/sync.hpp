// Sync: one round of sharing a store through its git remote (`git.remote`).
// The remote's commits are fetched and merged file by file, memory files
// claim by claim (memory_merge.hpp), through the same crash-safe transaction
// as a consolidation; then this machine's commits are pushed. Published
// history is never rewritten: no push is forced, and a remote whose history
// was rewritten is refused with nothing local touched.
#pragma once

#include "config/config.hpp"
#include "engine/recovery.hpp"
#include "engine/snapshot.hpp"
#include "engine/transaction.hpp"
#include "engram/rule.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace engram::engine {

// What one sync round did.
struct Synced {
  std::string remote;                   // the URL
  std::string branch;                   // the remote's branch
  Recovery recovery;                    // an interrupted change, finished first
  std::optional<Snapshot> snapshot;     // the agent's edits, committed before anything else
  std::optional<std::string> fetched;   // the remote's tip; nullopt: the remote has no such branch
  std::string merge;                    // "" (nothing to merge), "fast-forward" or "merge"
  std::optional<std::string> commit;    // the merge commit, or the commit fast-forwarded to
  std::vector<Action> record;           // what the merge took from where, claim by claim
  std::vector<std::string> touched;     // the files the merge wrote or removed
  std::vector<std::string> kept_beside; // files both sides changed that could not be merged:
                                        // the remote's copy, kept under this name beside ours
  bool pushed = false;                  // this machine's commits are on the remote
  bool refused = false;                 // the remote refused the last push (it moved on, a hook)
  std::size_t ahead = 0;                // commits the remote lacks after the round
  std::size_t behind = 0;               // commits the remote has that the store lacks
  std::string problem;                  // why the round stopped short (unreachable, refused)
};

// Syncs the store at `root` with `git.remote` on `git.branch` (the store's
// own branch when empty): fetch, merge, push. Throws engram::Error, having
// changed nothing, when the remote's history was rewritten (the message names
// both tips) or when no remote is configured; a remote that cannot be reached
// or refuses the push is reported in `problem`, the commits kept to push next
// time. `today` dates superseded markers. `after_merge`, when a merge landed,
// runs between it and the push, holding no lock: the caller makes the
// generated files again from the merged ones there (a lightweight run).
Synced sync(const std::filesystem::path& root, const config::Settings& settings, Date today,
            const std::function<void()>& after_merge = {});

// The last round's outcome as kept in the store's git folder, for `engram status`.
struct SyncState {
  std::int64_t time = 0; // seconds since the epoch; 0: never synced
  std::string remote;
  std::size_t ahead = 0;
  std::size_t behind = 0;
  std::string problem; // empty when the round succeeded
};

// The state the last round left, or nullopt when the store never synced.
std::optional<SyncState> read_sync_state(const std::filesystem::path& gitdir);

} // namespace engram::engine
