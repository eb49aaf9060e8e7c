// Status: which files of the working tree and the index differ from HEAD —
// the whole tree through libgit2's status, or only the files a watcher named.
#include "base/error.hpp"
#include "git/libgit2.hpp"
#include "git/repository.hpp"

#include <algorithm>
#include <limits>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

namespace engram::git {

using namespace detail;

namespace {

// The change a status entry stands for, seen from HEAD to the working tree.
std::optional<ChangeKind> kind_of(unsigned int status) {
  const auto has = [status](unsigned int flags) { return (status & flags) != 0; };
  // HEAD lacks a file the index added, or one that is untracked; a file
  // dropped from the index (`git rm --cached`) was in HEAD.
  const bool in_head = has(GIT_STATUS_INDEX_NEW)       ? false
                       : has(GIT_STATUS_INDEX_DELETED) ? true
                                                       : !has(GIT_STATUS_WT_NEW);
  const bool on_disk =
      !has(GIT_STATUS_WT_DELETED) && !(has(GIT_STATUS_INDEX_DELETED) && !has(GIT_STATUS_WT_NEW));
  if (in_head && !on_disk) {
    return ChangeKind::deleted;
  }
  if (!in_head) {
    return on_disk ? std::optional(ChangeKind::added) : std::nullopt;
  }
  return status == GIT_STATUS_CURRENT ? std::nullopt : std::optional(ChangeKind::modified);
}

// Every path a change could be at when status cannot say: the index's files
// and every file or link of the working tree (folders it cannot read, .git
// and ignored folders left out).
std::vector<std::string> every_path(git_repository* repository,
                                    const std::filesystem::path& workdir) {
  std::vector<std::string> paths;
  Index index;
  if (git_repository_index(&index.pointer, repository) == 0) {
    const std::size_t count = git_index_entrycount(index.pointer);
    for (std::size_t i = 0; i < count; ++i) {
      paths.emplace_back(git_index_get_byindex(index.pointer, i)->path);
    }
  }
  namespace fs = std::filesystem;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(
           workdir, fs::directory_options::skip_permission_denied, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    const std::string relative = it->path().lexically_relative(workdir).generic_string();
    int ignored = 0;
    if (it->path().filename() == ".git" ||
        (it->is_directory(error) &&
         git_ignore_path_is_ignored(&ignored, repository, (relative + "/").c_str()) == 0 &&
         ignored != 0)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink(error) || it->is_regular_file(error)) {
      paths.push_back(relative);
    }
  }
  return paths;
}

// The files among `paths` whose bytes on disk differ from HEAD's, that HEAD
// lacks (unless ignored), or that are gone; sorted by path (see changes()).
std::vector<Change> changes_among(git_repository* repository, const std::filesystem::path& workdir,
                                  const std::vector<std::string>& paths) {
  Tree tree;
  const bool born = head_tree(repository, tree);
  std::vector<std::string> sorted = paths;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<Change> result;
  for (const auto& path : sorted) {
    // HEAD's blob at the path; a folder there is not a file of HEAD's.
    std::optional<git_oid> in_head;
    TreeEntry entry;
    if (born && git_tree_entry_bypath(&entry.pointer, tree.pointer, path.c_str()) == 0 &&
        git_tree_entry_type(entry.pointer) == GIT_OBJECT_BLOB) {
      in_head = *git_tree_entry_id(entry.pointer);
    }
    const std::filesystem::path file = workdir / path;
    struct stat seen {};
    const bool on_disk =
        ::lstat(file.c_str(), &seen) == 0 && (S_ISREG(seen.st_mode) || S_ISLNK(seen.st_mode));
    if (!on_disk) {
      if (in_head) {
        result.push_back(Change{path, ChangeKind::deleted});
      }
      continue;
    }
    if (!in_head) {
      int ignored = 0;
      if (git_ignore_path_is_ignored(&ignored, repository, path.c_str()) == 0 && ignored != 0) {
        continue; // status does not show an ignored file either
      }
      result.push_back(Change{path, ChangeKind::added});
      continue;
    }
    // The id of its bytes (a link's target) as they are, without git's
    // filters: loading those reads the whole index for its attributes, the
    // largest cost of a one-file snapshot. A store has no filters; if one
    // did, a file would at worst look changed and its staging find HEAD's
    // blob again (no commit is made of an unchanged tree).
    const auto bytes = working_bytes(file, std::numeric_limits<std::uintmax_t>::max()).bytes;
    git_oid on_disk_id;
    // One that cannot be read now is shown as changed: staging says why.
    if (!bytes || git_odb_hash(&on_disk_id, bytes->data(), bytes->size(), GIT_OBJECT_BLOB) != 0 ||
        git_oid_equal(&on_disk_id, &*in_head) == 0) {
      result.push_back(Change{path, ChangeKind::modified});
    }
  }
  return result;
}

// The status of the working tree and the index against HEAD, untracked files
// one by one, with `flags`; the index refreshed as `git status` refreshes it:
// a file whose stat data the index does not hold (a copied or restored
// store, a file written in the second its index was) is hashed once, not at
// every start. False when it failed.
bool status_of(StatusList& status, git_repository* repository, unsigned int flags) {
  git_status_options options = GIT_STATUS_OPTIONS_INIT;
  options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  options.flags = flags | GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
                  GIT_STATUS_OPT_UPDATE_INDEX;
  return git_status_list_new(&status.pointer, repository, &options) == 0;
}

} // namespace

bool Repository::is_clean() const {
  StatusList status;
  // A nested repository's own changes are its history's, as changes() says.
  if (!status_of(status, m_repository.get(), GIT_STATUS_OPT_EXCLUDE_SUBMODULES)) {
    return changes_among(m_repository.get(), m_workdir, every_path(m_repository.get(), m_workdir))
        .empty(); // see changes()
  }
  return git_status_list_entrycount(status.pointer) == 0;
}

std::vector<Change> Repository::changes(const std::vector<std::string>* only) const {
  if (only != nullptr) {
    return changes_among(m_repository.get(), m_workdir, *only);
  }
  StatusList status;
  if (!status_of(status, m_repository.get(), GIT_STATUS_OPT_EXCLUDE_SUBMODULES)) {
    // One file git cannot read (another user's, mode 000) fails the whole
    // status; path by path, each is looked at alone, and one that cannot be
    // read is shown changed, for the staging to skip it and say why.
    spdlog::debug("{}; looking at each file alone", last_error("git status failed"));
    return changes_among(m_repository.get(), m_workdir, every_path(m_repository.get(), m_workdir));
  }
  std::vector<Change> result;
  const std::size_t count = git_status_list_entrycount(status.pointer);
  for (std::size_t i = 0; i < count; ++i) {
    const git_status_entry* entry = git_status_byindex(status.pointer, i);
    const git_diff_delta* delta =
        entry->head_to_index != nullptr ? entry->head_to_index : entry->index_to_workdir;
    const auto kind = kind_of(entry->status);
    if (delta == nullptr || !kind) {
      continue;
    }
    result.push_back(Change{delta_path(delta), *kind});
  }
  std::sort(result.begin(), result.end(),
            [](const Change& a, const Change& b) { return a.path < b.path; });
  return result;
}

} // namespace engram::git
