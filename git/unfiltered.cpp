// Unfiltered staging. libgit2 loads the attributes of every path it stages
// or hashes (a stat of each attributes file that could apply, a realpath of
// the working tree, with no cache between paths): ten system calls a file,
// most of the time a large commit spends staging. A store has no filters, so
// a commit of many files stages their bytes as they are, which is what
// libgit2 would store, once may_filter has said no filter can apply.
#include "git/unfiltered.hpp"

#include "base/regular_file.hpp"
#include "git/libgit2.hpp"

#include <cstdlib>
#include <limits>
#include <string_view>
#include <sys/stat.h>

namespace engram::git::detail {
namespace {

// Whether `path` names a file that exists.
bool file_exists(const std::filesystem::path& path) {
  struct stat seen {};
  return ::stat(path.c_str(), &seen) == 0;
}

// A boolean or `input` setting as git reads it; false when unset.
bool config_on(git_config* config, const char* name) {
  int value = 0;
  if (git_config_get_bool(&value, config, name) == 0) {
    return value != 0;
  }
  git_buf text = GIT_BUF_INIT;
  const bool on = git_config_get_string_buf(&text, config, name) == 0 && text.ptr != nullptr &&
                  std::string_view(text.ptr) != "false";
  git_buf_dispose(&text);
  return on;
}

// The user's attributes file: core.attributesFile, else git's default place.
bool user_attributes(git_config* config) {
  git_buf path = GIT_BUF_INIT;
  if (git_config_get_path(&path, config, "core.attributesFile") == 0) {
    const bool there = path.ptr != nullptr && file_exists(path.ptr);
    git_buf_dispose(&path);
    return there;
  }
  git_buf_dispose(&path);
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0') {
    return file_exists(std::filesystem::path(xdg) / "git" / "attributes");
  }
  const char* home = std::getenv("HOME");
  return home != nullptr &&
         file_exists(std::filesystem::path(home) / ".config" / "git" / "attributes");
}

} // namespace

bool trusts_file_mode(git_repository* repository) {
  Config config;
  int value = 1;
  if (git_repository_config_snapshot(&config.pointer, repository) == 0 &&
      git_config_get_bool(&value, config.pointer, "core.filemode") == 0) {
    return value != 0;
  }
  return true;
}

bool may_filter(git_repository* repository, git_index* index) {
  Config config;
  if (git_repository_config_snapshot(&config.pointer, repository) != 0) {
    return true;
  }
  if (config_on(config.pointer, "core.autocrlf") || user_attributes(config.pointer)) {
    return true;
  }
  const std::filesystem::path gitdir = git_repository_path(repository);
  const char* workdir = git_repository_workdir(repository);
  if (workdir == nullptr || file_exists(gitdir / "info" / "attributes") ||
      file_exists(std::filesystem::path(workdir) / ".gitattributes") ||
      file_exists("/etc/gitattributes")) {
    return true;
  }
  constexpr std::string_view k_name = ".gitattributes";
  const std::size_t count = git_index_entrycount(index);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string_view path = git_index_get_byindex(index, i)->path;
    if (path.ends_with(k_name) &&
        (path.size() == k_name.size() || path[path.size() - k_name.size() - 1] == '/')) {
      return true;
    }
  }
  return false;
}

int stage_unfiltered(git_repository* repository, git_index* index,
                     const std::filesystem::path& workdir, const std::string& path,
                     bool trust_mode) {
  RegularFile::Failure failed{};
  auto file = RegularFile::open(workdir / path, failed);
  if (!file) {
    return 1;
  }
  const auto bytes = file->read(std::numeric_limits<std::uintmax_t>::max());
  if (!bytes) {
    return 1;
  }
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repository) != 0) {
    return 1;
  }
  git_oid id;
  int code = git_odb_hash(&id, bytes->data(), bytes->size(), GIT_OBJECT_BLOB);
  if (code == 0 && git_odb_exists(odb, &id) == 0) {
    code = git_odb_write(&id, odb, bytes->data(), bytes->size(), GIT_OBJECT_BLOB);
  }
  git_odb_free(odb);
  if (code != 0) {
    return code;
  }
  const struct stat& info = file->info();
  git_index_entry entry{};
  entry.ctime.seconds = static_cast<std::int32_t>(info.st_ctim.tv_sec);
  entry.ctime.nanoseconds = static_cast<std::uint32_t>(info.st_ctim.tv_nsec);
  entry.mtime.seconds = static_cast<std::int32_t>(info.st_mtim.tv_sec);
  entry.mtime.nanoseconds = static_cast<std::uint32_t>(info.st_mtim.tv_nsec);
  entry.dev = static_cast<std::uint32_t>(info.st_dev);
  entry.ino = static_cast<std::uint32_t>(info.st_ino);
  entry.uid = info.st_uid;
  entry.gid = info.st_gid;
  entry.file_size = static_cast<std::uint32_t>(info.st_size);
  entry.mode = static_cast<std::uint32_t>(
      (info.st_mode & S_IXUSR) != 0 ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB);
  if (!trust_mode) { // core.filemode = false: the executable bit is the index's, not the file's
    const git_index_entry* staged = git_index_get_bypath(index, path.c_str(), 0);
    entry.mode = staged != nullptr ? staged->mode : static_cast<std::uint32_t>(GIT_FILEMODE_BLOB);
  }
  entry.id = id;
  entry.path = path.c_str();
  return git_index_add(index, &entry);
}

} // namespace engram::git::detail
