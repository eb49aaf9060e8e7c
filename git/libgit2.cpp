// What the files of git/ share (see libgit2.hpp).
#include "git/libgit2.hpp"

#include "base/regular_file.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

namespace engram::git {

namespace detail {

namespace {

// Initialises libgit2 on construction and shuts it down at exit.
class Library {
public:
  Library() {
    git_libgit2_init();
    // No fsync per object: a consolidation writes hundreds of objects, and
    // Repository::flush makes them durable with one syncfs at the points
    // where a later step depends on them (see commit_index).
    git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 0);
    // No existence check of every entry when a tree is written: engram
    // writes each blob itself before staging it, and the check read the
    // header of every object in a changed folder (8,000 in a big episodic/)
    // on each commit; it was an eighth of a one-file cycle's time.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 0);
    // Trees up to 8 MB stay parsed in the object cache (libgit2 keeps only
    // those under 4 KB): a one-file snapshot reads the changed file's folder
    // twice — to compare the file with HEAD's, then to write the new tree —
    // and a store's folder of 2,000 memories is a 90 KB tree.
    git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
                     static_cast<std::size_t>(8) << 20);
  }
  ~Library() { git_libgit2_shutdown(); }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
};

} // namespace

void ensure_library() {
  static const Library k_library;
}

void fresh_errors() {
  git_error_clear();
  errno = 0;
}

std::string last_error(std::string_view doing) {
  const int system_error = errno;
  const git_error* error = git_error_last();
  if (error != nullptr && error->message != nullptr) {
    return fmt::format("{}: {}", doing, error->message);
  }
  return fmt::format("{}: {}", doing,
                     system_error != 0 ? std::strerror(system_error) : "unknown libgit2 error");
}

std::optional<std::filesystem::path> objects_folder(git_repository* repository) {
  git_buf folder = GIT_BUF_INIT;
  if (git_repository_item_path(&folder, repository, GIT_REPOSITORY_ITEM_OBJECTS) != 0) {
    return std::nullopt;
  }
  std::filesystem::path objects = folder.ptr;
  git_buf_dispose(&folder);
  return objects;
}

Failure failure(int code, std::string_view doing) {
  return Failure{last_error(doing), code == GIT_ELOCKED ? Locked::yes : Locked::no};
}

bool head_tree(git_repository* repository, Tree& tree) {
  Object object;
  if (git_revparse_single(&object.pointer, repository, "HEAD^{tree}") != 0) {
    return false;
  }
  tree.pointer = reinterpret_cast<git_tree*>(object.pointer);
  object.pointer = nullptr;
  return true;
}

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
  Tree tree;
  TreeEntry entry;
  if (head_tree(repository, tree) &&
      git_tree_entry_bypath(&entry.pointer, tree.pointer, path.c_str()) == 0 &&
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

WorkingBytes working_bytes(const std::filesystem::path& file, std::uintmax_t max_bytes) {
  std::error_code error;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(file, error))) {
    const auto target = std::filesystem::read_symlink(file, error);
    return {error ? std::nullopt : std::optional(target.string()), std::nullopt};
  }
  RegularFile::Failure failed{};
  auto opened = RegularFile::open(file, failed);
  if (!opened) {
    return {};
  }
  const auto size = static_cast<std::uintmax_t>(opened->info().st_size);
  if (size > max_bytes) {
    return {std::nullopt, size};
  }
  auto bytes = opened->read(max_bytes);
  if (bytes && bytes->size() > max_bytes) { // it grew while being read
    return {std::nullopt, static_cast<std::uintmax_t>(bytes->size())};
  }
  return {std::move(bytes), std::nullopt};
}

} // namespace detail

} // namespace engram::git
