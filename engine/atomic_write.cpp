// Atomic writes (see atomic_write.hpp and temporary_file.hpp): a file written through a temporary
// beside it, flushed, renamed into place, its folder flushed.
#include "engine/atomic_write.hpp"

#include "base/durability.hpp"
#include "base/error.hpp"
#include "base/fault.hpp"
#include "base/regular_file.hpp"
#include "base/write_all.hpp"
#include "engine/temporary_file.hpp"
#include "store/scan.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <limits>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

namespace engram::engine {
namespace fs = std::filesystem;

namespace {

// The time now, in nanoseconds since 1970.
std::int64_t now_ns() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

} // namespace

DiskState disk_state(const fs::path& path) {
  DiskState state;
  state.taken_ns = now_ns();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    struct stat seen {};
    if (::lstat(path.c_str(), &seen) == 0) {
      state.hash = store::content_hash(""); // there but unreadable (a broken link): not as planned
      state.stable = false;
    }
    return state;
  }
  struct stat info {};
  std::uintmax_t expected = 0;
  if (::fstat(fd, &info) == 0) {
    state.identity = store::identity_of(info);
    expected = static_cast<std::uintmax_t>(std::max<off_t>(info.st_size, 0));
  } else {
    state.stable = false;
  }
  std::string bytes;
  if (!read_to_end(fd, expected, std::numeric_limits<std::uintmax_t>::max() - 1, bytes)) {
    state.stable = false;
  }
  ::close(fd);
  state.hash = store::content_hash(bytes);
  return state;
}

bool unchanged_since(const fs::path& path, const DiskState& state) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return !state.hash && (errno == ENOENT || errno == ENOTDIR);
  }
  // A change made within a clock tick of the look could keep every field
  // (a coarse file system's timestamps): only an older file is trusted.
  constexpr std::int64_t k_tick_ns = 1'000'000'000;
  const auto& was = state.identity;
  return state.hash && state.stable && store::identity_of(info) == was &&
         was.ctime_ns + k_tick_ns < state.taken_ns && was.mtime_ns + k_tick_ns < state.taken_ns;
}

std::optional<std::string> disk_hash(const fs::path& path) {
  return disk_state(path).hash;
}

namespace {

// Makes a rename or unlink in `folder` durable.
void fsync_folder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

} // namespace

bool is_temporary_name(std::string_view filename) {
  // `.` + name + `.` + six characters from mkstemps + `.tmp`.
  constexpr std::size_t k_suffix = 1 + 6 + 4;
  if (filename.size() < 1 + 1 + k_suffix || filename.front() != '.' ||
      !filename.ends_with(".tmp") || filename[filename.size() - k_suffix] != '.') {
    return false;
  }
  const auto random = filename.substr(filename.size() - k_suffix + 1, 6);
  return std::all_of(random.begin(), random.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

namespace detail {

// What a file written at `path` is given: the mode and owner of the file it
// replaces (a private 0600 memory stays private), else a mode as
// restrictive as its folder's (a 0700 folder makes 0600 files, a 0750 one
// 0640), at most 0644. Never a set-id bit.
struct Permissions {
  mode_t mode = 0644;
  std::optional<std::pair<uid_t, gid_t>> owner; // the replaced file's, when not the writer's
};

Permissions permissions_for(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
    Permissions kept{static_cast<mode_t>(info.st_mode & 0777), std::nullopt};
    if (info.st_uid != ::geteuid() || info.st_gid != ::getegid()) {
      kept.owner.emplace(info.st_uid, info.st_gid);
    }
    return kept;
  }
  if (::stat(path.parent_path().c_str(), &info) == 0) {
    return Permissions{static_cast<mode_t>(0644 & (info.st_mode | 0600)), std::nullopt};
  }
  return Permissions{};
}

Temporary write_temporary(const fs::path& path, std::span<const std::string_view> parts,
                          KeepOpen keep, Folder folder) {
  if (folder == Folder::make) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
  }
  // The temporary ends in .tmp so watchers (ours included) ignore it.
  std::string temp =
      (path.parent_path() / ("." + path.filename().string() + ".XXXXXX.tmp")).string();
  const int fd = ::mkstemps(temp.data(), 4);
  if (fd < 0) {
    throw Error("{}: cannot create a temporary file: {}", path.string(), std::strerror(errno));
  }
  if (!std::all_of(parts.begin(), parts.end(),
                   [fd](std::string_view part) { return write_all(fd, part); })) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    ::unlink(temp.c_str());
    throw Error("{}: cannot write: {}", path.string(), reason);
  }
  const Permissions permissions = permissions_for(path);
  if (permissions.owner) {
    if (::fchown(fd, permissions.owner->first, permissions.owner->second) != 0) {
      // Only root (or a group the writer is in) may: else it stays the writer's.
      spdlog::debug("{}: keeps the writer's owner: {}", path.string(), std::strerror(errno));
    }
  }
  ::fchmod(fd, permissions.mode);
  if (keep == KeepOpen::yes) {
    return Temporary{path, std::move(temp), fd};
  }
  if (::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    throw Error("{}: cannot write: {}", path.string(), reason);
  }
  return Temporary{path, std::move(temp)};
}

// Removes temporaries that will not be renamed (a failed apply).
void discard(const std::vector<Temporary>& temporaries, std::size_t from) {
  for (std::size_t i = from; i < temporaries.size(); ++i) {
    if (!temporaries[i].path.empty()) { // empty: never made (a write beside it failed first)
      ::unlink(temporaries[i].path.c_str());
    }
  }
}

void rename_into_place(const Temporary& temporary) {
  if (::rename(temporary.path.c_str(), temporary.target.c_str()) != 0) {
    throw Error("{}: cannot rename into place: {}", temporary.target.string(),
                std::strerror(errno));
  }
}

// Makes the renames or unlinks in each of `folders` durable.
void sync_folders(const std::vector<fs::path>& paths) {
  std::vector<fs::path> folders;
  for (const auto& path : paths) {
    folders.push_back(path.parent_path());
  }
  std::sort(folders.begin(), folders.end());
  folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
  for (const auto& folder : folders) {
    fsync_folder(folder);
  }
}

} // namespace detail

namespace detail {

// write_atomically_over, of `parts` one after the other.
bool write_parts_over(const fs::path& path, std::span<const std::string_view> parts,
                      const std::optional<std::string>& base_hash, Unchanged check,
                      const std::function<void(const fs::path&)>& place) {
  // Held open from its creation to its rename: a run's recovery in another
  // process removes only the temporaries nobody holds.
  const auto temporary = write_temporary(path, parts, KeepOpen::yes);
  const auto give_up = [&] {
    ::unlink(temporary.path.c_str());
    ::close(temporary.fd);
  };
  if (::fsync(temporary.fd) != 0) {
    const std::string reason = std::strerror(errno);
    give_up();
    throw Error("{}: cannot flush: {}", path.string(), reason);
  }
  fault_point("atomic-write-before-rename");
  // Checked at the last moment, after the slow flush: a writer that changed
  // the file since it was read keeps its bytes.
  if (check == Unchanged::required && disk_hash(path) != base_hash) {
    give_up();
    return false;
  }
  try {
    if (place) {
      place(temporary.path);
    } else {
      rename_into_place(temporary);
    }
  } catch (...) {
    give_up();
    throw;
  }
  ::close(temporary.fd);
  fsync_folder(path.parent_path());
  return true;
}
} // namespace detail

using namespace detail;

void write_atomically(const fs::path& path, std::string_view bytes) {
  write_atomically(path, {bytes});
}

void write_atomically(const fs::path& path, std::initializer_list<std::string_view> parts) {
  (void)write_parts_over(path, parts, std::nullopt, Unchanged::any); // always true
}

bool write_atomically_over(const fs::path& path, std::string_view bytes,
                           const std::optional<std::string>& base_hash, Unchanged check,
                           const std::function<void(const fs::path&)>& place) {
  return write_parts_over(path, {&bytes, 1}, base_hash, check, place);
}

void sync_filesystem(const fs::path& path) {
  if (auto failed = sync_file_system(path)) {
    throw Error("{}", *failed);
  }
}

} // namespace engram::engine
