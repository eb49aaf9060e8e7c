// Index access: reading the index as it is on disk, setting a path to HEAD's
// entry (see index_access.hpp).
#include "git/index_access.hpp"

namespace engram::git::detail {

Expected<git_index*, Failure> fresh_index(git_repository* repository, Index& index) {
  if (const int code = git_repository_index(&index.pointer, repository); code != 0) {
    return unexpected(failure(code, "cannot read the index"));
  }
  // Read again only when the file on disk is not what was read (libgit2
  // compares its stamp and its checksum): reading a 10,000-file index costs
  // milliseconds, and the repository loaded it a moment ago. What a failed
  // step staged in memory was dropped by that step (a forced read).
  if (const int code = git_index_read(index.pointer, 0); code != 0) {
    return unexpected(failure(code, "cannot re-read the index"));
  }
  return index.pointer;
}

int stage_as_head(git_repository* repository, git_index* index, const std::string& path) {
  Object head_tree;
  TreeEntry entry;
  if (git_revparse_single(&head_tree.pointer, repository, "HEAD^{tree}") == 0 &&
      git_tree_entry_bypath(&entry.pointer, reinterpret_cast<git_tree*>(head_tree.pointer),
                            path.c_str()) == 0 &&
      git_tree_entry_type(entry.pointer) == GIT_OBJECT_BLOB) {
    git_index_entry staged{};
    staged.path = path.c_str();
    staged.mode = git_tree_entry_filemode(entry.pointer);
    git_oid_cpy(&staged.id, git_tree_entry_id(entry.pointer));
    return git_index_add(index, &staged);
  }
  if (git_index_get_bypath(index, path.c_str(), 0) == nullptr) {
    return 0;
  }
  return git_index_remove_bypath(index, path.c_str());
}

std::filesystem::path behind_marker(const std::filesystem::path& gitdir) {
  return gitdir / "engram-index-behind";
}

} // namespace engram::git::detail
