// Locks: other people's git work in a store. While the user's git holds
// `index.lock` or is in the middle of a merge, rebase, cherry-pick or revert,
// engram waits (with backoff, for a bounded time) rather than commit across it.
// A lock file is removed only when no process has it open and it has not
// changed for a while: then it is debris of a git that died, and would block
// every git command in the store for ever.
#pragma once

#include "base/expected.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace engram::git {

// One sign that another git operation is in progress.
struct Busy {
  std::filesystem::path path; // the lock file or state file/folder found
  std::string what;           // in words: "index.lock", "a merge (MERGE_HEAD)", ...
  bool lock_file = false;     // a `*.lock` file, which may be stale; state files never are
};

// How long to wait for git, and when a lock counts as stale.
struct LockWait {
  std::chrono::milliseconds total{60'000};       // give up after this long in all
  std::chrono::milliseconds stale_after{60'000}; // a lock unchanged this long, not held: debris
  std::chrono::milliseconds first_pause{25};     // the first pause; each next one doubles
  std::chrono::milliseconds longest_pause{1'000};
  // Pauses between looks; tests inject one that changes the folder instead of sleeping.
  std::function<void(std::chrono::milliseconds)> sleep;
};

// What waiting did.
struct Waited {
  std::chrono::milliseconds waited{0};              // time spent pausing
  std::vector<std::filesystem::path> cleared_locks; // stale lock files removed, each with a warning
};

// Every sign of another git operation in progress in `gitdir`: index.lock,
// HEAD.lock, the current branch's and engram's notes ref locks, MERGE_HEAD, rebase-merge/,
// rebase-apply/, CHERRY_PICK_HEAD, REVERT_HEAD.
std::vector<Busy> find_busy(const std::filesystem::path& gitdir);

// True when some process has `path` open (on Linux, every open file of this
// user's processes is compared); where that cannot be known it answers true,
// so nothing is removed on a guess.
bool held_open(const std::filesystem::path& path);

// Returns once no git operation is in progress in `gitdir`, pausing with
// backoff between looks. Lock files that are stale (no process has them open
// and unchanged for `stale_after`) are removed with a warning. After
// `wait.total` it gives up with a message naming what is still in the way.
[[nodiscard]] Expected<Waited, std::string> wait_until_idle(const std::filesystem::path& gitdir,
                                                            const LockWait& wait);

} // namespace engram::git
