// Which paths are never changes and which folders are never walked: the one
// place both watcher backends ask, so they agree on what a change is.
#include "store/temporaries.hpp"
#include "watch/watcher.hpp"

#include <algorithm>
#include <array>

namespace engram::watch {

namespace {

namespace fs = std::filesystem;

// Entries of the top-level .git whose presence means a git operation of the user is under way.
constexpr std::array<std::string_view, 6> k_git_markers = {
    "index.lock", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply"};

// The name of git's folder.
constexpr std::string_view k_git_dir = ".git";

// True when `relative` is `state_dir` or inside it, comparing whole components.
bool is_in_state_dir(const fs::path& relative, std::string_view state_dir) {
  if (state_dir.empty()) {
    return false;
  }
  const fs::path state = fs::path(state_dir).lexically_normal();
  auto it = relative.begin();
  for (const fs::path& part : state) {
    if (part.empty()) {
      continue; // the trailing "" of "dir/"
    }
    if (it == relative.end() || *it != part) {
      return false;
    }
    ++it;
  }
  return true;
}

// True when any component of `relative` is .git.
bool has_git_component(const fs::path& relative) {
  return std::any_of(relative.begin(), relative.end(),
                     [](const fs::path& part) { return part == k_git_dir; });
}

// The number of components of `relative`.
std::size_t depth(const fs::path& relative) {
  return static_cast<std::size_t>(std::distance(relative.begin(), relative.end()));
}

} // namespace

bool is_git_marker(const fs::path& relative) {
  if (depth(relative) != 2 || *relative.begin() != k_git_dir) {
    return false;
  }
  const std::string name = relative.filename().string();
  return std::find(k_git_markers.begin(), k_git_markers.end(), name) != k_git_markers.end();
}

bool is_ignored(const fs::path& relative, std::string_view state_dir) {
  if (relative.empty()) {
    return false;
  }
  if (is_in_state_dir(relative, state_dir)) {
    return true;
  }
  if (is_git_marker(relative)) {
    return false;
  }
  if (has_git_component(relative)) {
    return true;
  }
  return store::is_editor_temporary(relative.filename().string());
}

bool is_pruned(const fs::path& relative, std::string_view state_dir) {
  if (relative.empty()) {
    return false;
  }
  if (is_in_state_dir(relative, state_dir)) {
    return true;
  }
  if (relative == k_git_dir) {
    return false; // watched alone, for its markers
  }
  return has_git_component(relative);
}

} // namespace engram::watch
