// libgit2 plumbing shared by the files of git/ (git/libgit2.hpp): the
// library initialised once, with the options engram needs, and libgit2's
// failures turned into messages.
#include "git/libgit2.hpp"

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

} // namespace detail

} // namespace engram::git
