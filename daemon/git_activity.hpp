// Git activity: whether the user (or another tool) is in the middle of a git
// operation in a store, during which engram must not commit. The daemon
// waits, and looks again when the watcher sees `.git/index.lock` go.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace engram::daemon {

// What is in progress in the store's repository (`index.lock`, a merge, a
// rebase, a cherry-pick, a revert), or nullopt when nothing is.
std::optional<std::string> git_operation_in_progress(const std::filesystem::path& root);

// True for a change event that is git's own state (a path under `.git/`),
// which is never an agent's change, only a hint to look at git again.
bool is_git_path(const std::filesystem::path& relative);

} // namespace engram::daemon
