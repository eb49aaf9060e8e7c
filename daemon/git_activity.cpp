// Git activity, read from the marker files git leaves while it works.
#include "daemon/git_activity.hpp"

#include "git/repository.hpp"

#include <array>

namespace engram::daemon {

std::optional<std::string> git_operation_in_progress(const std::filesystem::path& root) {
  // Each of these exists exactly while its operation is under way.
  static constexpr std::array<std::pair<const char*, const char*>, 6> k_markers = {{
      {"index.lock", "a git command holds index.lock"},
      {"MERGE_HEAD", "a merge is in progress"},
      {"rebase-merge", "a rebase is in progress"},
      {"rebase-apply", "a rebase or am is in progress"},
      {"CHERRY_PICK_HEAD", "a cherry-pick is in progress"},
      {"REVERT_HEAD", "a revert is in progress"},
  }};
  const std::filesystem::path git = git::Repository::gitdir_of(root);
  std::error_code error;
  for (const auto& [name, what] : k_markers) {
    if (std::filesystem::exists(git / name, error)) {
      return std::string(what);
    }
  }
  return std::nullopt;
}

bool is_git_path(const std::filesystem::path& relative) {
  return !relative.empty() && *relative.begin() == ".git";
}

} // namespace engram::daemon
