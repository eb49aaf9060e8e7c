// Unfiltered staging and refreshing. libgit2 loads the attributes of every
// path it stages or hashes (a stat of each attributes file that could apply,
// a realpath of the working tree, with no cache between paths): ten system
// calls a file, most of the time a large commit spends staging, and most of
// the time a status spends on files whose stat data went stale (a copied or
// restored store). A store has no filters, so a commit of many files stages
// their bytes as they are, and a refresh hashes them as they are, which is
// what libgit2 would store, once may_filter has said no filter can apply.
#include "git/unfiltered.hpp"

#include "base/parallel.hpp"
#include "base/regular_file.hpp"
#include "git/libgit2.hpp"
#include "git/object_id.hpp"

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string_view>
#include <sys/stat.h>
#include <vector>

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

// The stat data git keeps of a file, in the widths the index has.
git_index_entry stat_of(const struct stat& info) {
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
  return entry;
}

// Gives `entry` the stat data of `info`, leaving its id, mode, path and flags.
void set_stat(git_index_entry& entry, const struct stat& info) {
  const auto seen = stat_of(info);
  entry.ctime = seen.ctime;
  entry.mtime = seen.mtime;
  entry.dev = seen.dev;
  entry.ino = seen.ino;
  entry.uid = seen.uid;
  entry.gid = seen.gid;
  entry.file_size = seen.file_size;
}

// The mode git stages a regular file with: executable or not.
std::uint32_t file_mode(const struct stat& info) {
  return static_cast<std::uint32_t>((info.st_mode & S_IXUSR) != 0 ? GIT_FILEMODE_BLOB_EXECUTABLE
                                                                  : GIT_FILEMODE_BLOB);
}

// Whether the index's stat data of an entry is what `info` says now.
bool same_stat(const git_index_entry& entry, const struct stat& info) {
  const auto seen = stat_of(info);
  return entry.ctime.seconds == seen.ctime.seconds &&
         entry.ctime.nanoseconds == seen.ctime.nanoseconds &&
         entry.mtime.seconds == seen.mtime.seconds &&
         entry.mtime.nanoseconds == seen.mtime.nanoseconds && entry.dev == seen.dev &&
         entry.ino == seen.ino && entry.uid == seen.uid && entry.gid == seen.gid &&
         entry.file_size == seen.file_size;
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

bool may_filter_outside_index(git_repository* repository) {
  Config config;
  if (git_repository_config_snapshot(&config.pointer, repository) != 0) {
    return true;
  }
  if (config_on(config.pointer, "core.autocrlf") || user_attributes(config.pointer)) {
    return true;
  }
  const std::filesystem::path gitdir = git_repository_path(repository);
  const char* workdir = git_repository_workdir(repository);
  return workdir == nullptr || file_exists(gitdir / "info" / "attributes") ||
         file_exists(std::filesystem::path(workdir) / ".gitattributes") ||
         file_exists("/etc/gitattributes");
}

bool is_attributes_file(std::string_view path) {
  constexpr std::string_view k_name = ".gitattributes";
  return path.ends_with(k_name) &&
         (path.size() == k_name.size() || path[path.size() - k_name.size() - 1] == '/');
}

bool may_filter(git_repository* repository, git_index* index) {
  if (may_filter_outside_index(repository)) {
    return true;
  }
  const std::size_t count = git_index_entrycount(index);
  for (std::size_t i = 0; i < count; ++i) {
    if (is_attributes_file(git_index_get_byindex(index, i)->path)) {
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
    fresh_errors();
    code = git_odb_write(&id, odb, bytes->data(), bytes->size(), GIT_OBJECT_BLOB);
  }
  git_odb_free(odb);
  if (code != 0) {
    return code;
  }
  const struct stat& info = file->info();
  git_index_entry entry{};
  set_stat(entry, info);
  entry.mode = file_mode(info);
  if (!trust_mode) { // core.filemode = false: the executable bit is the index's, not the file's
    const git_index_entry* staged = git_index_get_bypath(index, path.c_str(), 0);
    entry.mode = staged != nullptr ? staged->mode : static_cast<std::uint32_t>(GIT_FILEMODE_BLOB);
  }
  entry.id = id;
  entry.path = path.c_str();
  return git_index_add(index, &entry);
}

std::size_t refresh_unfiltered(git_index* index, const std::filesystem::path& workdir,
                               bool trust_mode) {
  // Only plain file entries: not a link, a submodule, a conflict, or one git
  // is told to leave alone (skip-worktree, intent-to-add).
  std::vector<const git_index_entry*> files;
  const std::size_t count = git_index_entrycount(index);
  for (std::size_t i = 0; i < count; ++i) {
    const git_index_entry* staged = git_index_get_byindex(index, i);
    if (staged == nullptr || git_index_entry_stage(staged) != 0 ||
        (staged->flags_extended &
         (GIT_INDEX_ENTRY_SKIP_WORKTREE | GIT_INDEX_ENTRY_INTENT_TO_ADD)) != 0 ||
        (staged->mode != GIT_FILEMODE_BLOB && staged->mode != GIT_FILEMODE_BLOB_EXECUTABLE)) {
      continue;
    }
    files.push_back(staged);
  }
  // Each file is looked at on its own, on every core (a copied store's
  // 2,500 files are all read and hashed); the index is only read meanwhile.
  std::vector<std::optional<struct stat>> current(files.size());
  constexpr std::size_t k_files_per_thread = 64;
  for_each_index(files.size(), k_files_per_thread, [&](std::size_t i) {
    const git_index_entry& staged = *files[i];
    const std::filesystem::path path = workdir / staged.path;
    struct stat seen {};
    if (::lstat(path.c_str(), &seen) != 0 || !S_ISREG(seen.st_mode) || same_stat(staged, seen)) {
      return; // gone or not a file (status says so), or current
    }
    RegularFile::Failure failed{};
    auto file = RegularFile::open(path, failed);
    if (!file || (trust_mode && file_mode(file->info()) != staged.mode)) {
      return;
    }
    // The file may be written meanwhile: the stat data kept is that of the
    // descriptor the hashed bytes were read from.
    auto bytes = file->read(std::numeric_limits<std::uintmax_t>::max());
    git_oid id;
    // OpenSSL's SHA-1 (object_id), not libgit2's slower one: this only
    // compares, and a file that does not compare equal is hashed by status.
    if (!bytes || !object_id(GIT_OBJECT_BLOB, *bytes, id) || git_oid_equal(&id, &staged.id) == 0) {
      return; // changed: status hashes it and shows it
    }
    current[i] = file->info();
  });
  // Then the index is updated, here only: each entry replaced frees only itself.
  std::size_t refreshed = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!current[i]) {
      continue;
    }
    git_index_entry entry = *files[i];
    set_stat(entry, *current[i]);
    if (git_index_add(index, &entry) == 0) {
      ++refreshed;
    }
  }
  return refreshed;
}

} // namespace engram::git::detail
