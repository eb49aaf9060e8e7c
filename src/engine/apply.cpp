// Apply: the only code that changes memory files on disk.
#include "engine/apply.hpp"

#include "base/durability.hpp"
#include "base/error.hpp"
#include "base/fault.hpp"
#include "base/parallel.hpp"
#include "base/regular_file.hpp"
#include "base/step_timer.hpp"
#include "base/write_all.hpp"
#include "store/scan.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fmt/format.h>
#include <functional>
#include <limits>
#include <span>
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

DiskState disk_state(const fs::path& path, int* keep) {
  DiskState state;
  state.taken_ns = now_ns();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (keep != nullptr) {
    *keep = fd;
  }
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
  if (keep == nullptr) {
    ::close(fd);
  }
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

namespace {

// Makes room for `count` more descriptors at once. The descriptor table
// grows by doubling, and in a process with other threads each growth waits
// for an RCU grace period (fs/file.c, expand_fdtable): holding 2,640 files
// one by one cost 50 ms here; grown once, up front, it is one wait.
void reserve_descriptors(std::size_t count) {
  if (count == 0) {
    return;
  }
  const int high = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, static_cast<int>(count) + 64);
  if (high >= 0) {
    ::close(high);
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

namespace {

// A temporary file holding a change's new bytes, not yet renamed into place.
struct Temporary {
  fs::path target;
  std::string path;
  int fd = -1; // open until renamed, when the caller asked to keep it so
};

// Whether write_temporary closes the temporary or leaves it open.
enum class KeepOpen : bool { no, yes };

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

// Creates `.<name>.XXXXXX.tmp` beside `path` and writes `parts` to it, one
// after the other, with the permissions the file at `path` must keep
// (permissions_for). Not flushed: the caller makes every temporary durable at once.
// KeepOpen::yes returns it still open: recovery's sweep (remove_temporaries)
// leaves alone a temporary some process holds open, so a writer outside the
// run lock (`engram append`) holds its own until the rename.
// Its folder is made first, unless the caller made it (Folder::made).
enum class Folder : bool { make, made };

Temporary write_temporary(const fs::path& path, std::span<const std::string_view> parts,
                          KeepOpen keep = KeepOpen::no, Folder folder = Folder::make) {
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

} // namespace

namespace {

// write_atomically_over, of `parts` one after the other.
bool write_parts_over(const fs::path& path, std::span<const std::string_view> parts,
                      const std::optional<std::string>& base_hash, Unchanged check) {
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
    rename_into_place(temporary);
  } catch (...) {
    give_up();
    throw;
  }
  ::close(temporary.fd);
  fsync_folder(path.parent_path());
  return true;
}

// Puts back the files of the first `count` writes, renamed into place
// already: each its bytes before the plan (a new file removed), while it
// still holds the plan's bytes; a file written again since keeps its writer's.
void undo_renames(const std::vector<FileChange>& changes, const std::vector<std::size_t>& writes,
                  std::size_t count, const fs::path& root) {
  for (std::size_t j = 0; j < count; ++j) {
    const FileChange& change = changes[writes[j]];
    const fs::path path = root / change.path;
    const auto ours = store::content_hash(*change.new_bytes);
    if (!change.base_hash) {
      if (disk_hash(path) == ours) {
        ::unlink(path.c_str());
      }
      continue;
    }
    if (!change.base_bytes || store::content_hash(*change.base_bytes) != *change.base_hash) {
      spdlog::error("{}: written by this run and cannot be put back as it was; its bytes before "
                    "are in HEAD",
                    path.string());
      continue;
    }
    const std::string_view before = *change.base_bytes;
    if (!write_parts_over(path, {&before, 1}, ours, Unchanged::required)) {
      spdlog::warn("{}: written again since this run replaced it; the writer's bytes are kept",
                   path.string());
    }
  }
}

} // namespace

void write_atomically(const fs::path& path, std::string_view bytes) {
  write_atomically(path, {bytes});
}

void write_atomically(const fs::path& path, std::initializer_list<std::string_view> parts) {
  (void)write_parts_over(path, parts, std::nullopt, Unchanged::any); // always true
}

bool write_atomically_over(const fs::path& path, std::string_view bytes,
                           const std::optional<std::string>& base_hash, Unchanged check) {
  return write_parts_over(path, {&bytes, 1}, base_hash, check);
}

void sync_filesystem(const fs::path& path) {
  if (auto failed = sync_file_system(path)) {
    throw Error("{}", *failed);
  }
}

namespace {

// Renames each temporary into place, in plan order, every change still as
// planned (`as_planned`, by index into `changes`): all of them once more
// before the first rename, as one — an agent's write to any file since the
// hash defers the whole plan, not only the file written (an item moved out
// of WORKING.md must not leave it while its target keeps the agent's
// bytes) — then each just before its own. One written in the moment since
// undoes the renames made. The paths written; nullopt: defer the whole plan.
std::optional<std::vector<std::string>>
rename_all(const std::vector<FileChange>& changes, const std::vector<std::size_t>& writes,
           const std::vector<std::size_t>& removals, std::vector<Temporary>& temporaries,
           const std::function<bool(std::size_t)>& as_planned, const fs::path& root) {
  std::vector<std::string> written;
  std::vector<fs::path> renamed;
  for (std::size_t i = 0; i < temporaries.size(); ++i) {
    const std::size_t n = i + 1;
    fault_point(fmt::format("before-rename-{}", n));
    const bool still = i == 0 ? std::all_of(writes.begin(), writes.end(), as_planned) &&
                                    std::all_of(removals.begin(), removals.end(), as_planned)
                              : as_planned(writes[i]);
    if (!still) {
      discard(temporaries, i);
      undo_renames(changes, writes, i, root);
      sync_folders(renamed);
      return std::nullopt;
    }
    try {
      rename_into_place(temporaries[i]);
    } catch (...) {
      discard(temporaries, i);
      throw;
    }
    renamed.push_back(temporaries[i].target);
    written.push_back(changes[writes[i]].path);
    fault_point(fmt::format("after-write-{}", n));
  }
  sync_folders(renamed);
  return written;
}

} // namespace

ApplyResult apply(const Plan& plan, const fs::path& root) {
  return apply(plan.changes, root);
}

// The order makes every step safe to die in and cheap on a large plan: all
// new contents go to temporaries, one syncfs makes them durable together
// (one flush instead of one per file), then the renames, one fsync per
// folder, and only then the removals, again with one fsync per folder. A
// removal is never durable before the writes that took its claims.
//
// Each file is hashed once, after the flush (the slow step): any file that
// is not as the plan read it defers everything. Just before its own rename
// or removal, one stat shows a file is still the one hashed; only a file
// whose stat says otherwise is hashed again.
ApplyResult apply(const std::vector<FileChange>& changes, const fs::path& root, HeldFiles* held) {
  ApplyResult result;
  StepTimer timer;
  std::vector<std::size_t> removals; // indexes into changes
  std::vector<Temporary> temporaries;
  std::vector<std::size_t> writes; // the change each temporary holds
  // The changes of a plan belong together (an item moved out of WORKING.md
  // and into an episodic file): when an agent wrote any of the files after
  // the plan read them, nothing is written and everything waits for the next
  // run. Writing the rest would take a moved item out of its source while
  // its target keeps the agent's bytes, and the item would be gone.
  const auto defer_all = [&] {
    for (const auto& change : changes) {
      result.deferred.push_back(change.path);
    }
    return result;
  };
  try {
    std::vector<fs::path> folders;
    for (std::size_t i = 0; i < changes.size(); ++i) {
      if (!changes[i].new_bytes) {
        removals.push_back(i);
        continue;
      }
      writes.push_back(i);
      folders.push_back((root / changes[i].path).parent_path());
    }
    // Each folder made once, not looked up again for each of its files (a
    // system call costs 10-20 µs here). One thread: two measured no faster,
    // each create waiting on its folder's lock.
    std::sort(folders.begin(), folders.end());
    folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
    for (const auto& folder : folders) {
      std::error_code ec;
      fs::create_directories(folder, ec);
    }
    for (const std::size_t w : writes) {
      const std::string_view bytes = *changes[w].new_bytes;
      temporaries.push_back(
          write_temporary(root / changes[w].path, {&bytes, 1}, KeepOpen::no, Folder::made));
    }
    timer.step("temporaries");
    if (!temporaries.empty()) {
      sync_filesystem(root);
    }
    timer.step("flush");
  } catch (...) {
    discard(temporaries, 0);
    throw;
  }
  // Reading and hashing every file again is independent work per file. The
  // files that are there stay open, up to the budget (see HeldFiles).
  HeldFiles own;
  HeldFiles& holding = held != nullptr ? *held : own;
  const std::size_t most_held = HeldFiles::budget();
  reserve_descriptors(std::min(changes.size(), most_held));
  std::vector<DiskState> seen(changes.size());
  std::vector<int> descriptors(changes.size(), -1);
  constexpr std::size_t k_hashes_per_thread = 64;
  for_each_index(changes.size(), k_hashes_per_thread, [&](std::size_t i) {
    seen[i] = disk_state(root / changes[i].path, i < most_held ? &descriptors[i] : nullptr);
  });
  holding.take(std::move(descriptors));
  for (std::size_t i = 0; i < changes.size(); ++i) {
    if (seen[i].hash != changes[i].base_hash) {
      discard(temporaries, 0);
      return defer_all();
    }
  }
  timer.step("hash");
  // Checked again at the last moment: the agent may have written meanwhile.
  const auto still_as_planned = [&](std::size_t i) {
    const auto path = root / changes[i].path;
    return unchanged_since(path, seen[i]) || disk_hash(path) == changes[i].base_hash;
  };
  auto written = rename_all(changes, writes, removals, temporaries, still_as_planned, root);
  if (!written) {
    return defer_all();
  }
  result.written = std::move(*written);
  timer.step("renames");
  fault_point("before-remove");
  // Each removal is independent of the others now that every write is
  // durable, and where the file system discards a file's blocks as it goes
  // each unlink waits for the device: removed from several threads, the
  // waits overlap (2,000 removals: 150 -> 90 ms here). Results are taken in
  // plan order; the fault points count removals as they happen.
  enum class Removal : char { not_tried, deferred, removed };
  std::vector<Removal> outcome(removals.size(), Removal::not_tried);
  std::atomic<std::size_t> done{0};
  const auto collect = [&] {
    std::vector<fs::path> unlinked;
    for (std::size_t k = 0; k < removals.size(); ++k) {
      const auto& path = changes[removals[k]].path;
      if (outcome[k] == Removal::removed) {
        unlinked.push_back(root / path);
        result.removed.push_back(path);
      } else if (outcome[k] == Removal::deferred) {
        result.deferred.push_back(path);
      }
    }
    sync_folders(unlinked);
  };
  constexpr std::size_t k_removals_per_thread = 64;
  constexpr std::size_t k_removal_threads = 4;
  try {
    for_each_waiting(removals.size(), k_removals_per_thread, k_removal_threads, [&](std::size_t k) {
      const auto i = removals[k];
      const auto path = root / changes[i].path;
      if (!still_as_planned(i)) {
        outcome[k] = Removal::deferred;
        return;
      }
      if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
        throw Error("{}: cannot remove: {}", path.string(), std::strerror(errno));
      }
      outcome[k] = Removal::removed;
      fault_point(fmt::format("after-remove-{}", ++done));
    });
  } catch (...) {
    collect(); // what was removed is made durable before the failure is told
    throw;
  }
  collect();
  holding.close_in_background();
  timer.step("removals");
  spdlog::debug("{}: apply: {}", root.string(), timer.line());
  return result;
}

} // namespace engram::engine
