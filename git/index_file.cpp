// Index file: git's index format written directly (see index_file.hpp).
#include "git/index_file.hpp"

#include "base/parallel.hpp"
#include "base/regular_file.hpp"
#include "base/sha1.hpp"
#include "base/write_all.hpp"
#include "git/big_endian.hpp"
#include "git/object_id.hpp"
#include "git/retired_files.hpp"
#include "git/unfiltered.hpp"

#include <array>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <git2/sys/index.h>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace engram::git::detail {

namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t k_version = 4;

// A readable message for libgit2's last error, as its own failures set one.
int fail(int code, const std::string& message) {
  git_error_set_str(GIT_ERROR_OS, message.c_str());
  return code;
}

// git's offset varint (varint.c): seven bits a byte, most significant first,
// each byte but the last with its high bit set and one taken off what follows.
void put_varint(std::string& out, std::size_t value) {
  std::array<char, 16> bytes{};
  std::size_t at = bytes.size() - 1;
  bytes[at] = static_cast<char>(value & 0x7fU);
  while ((value >>= 7) != 0) {
    --value;
    bytes[--at] = static_cast<char>(0x80U | (value & 0x7fU));
  }
  out.append(bytes.data() + at, bytes.size() - at);
}

// An entry as the format has it: stat data, id, flags, then its path as the
// bytes to drop from the end of the last path and the bytes that follow.
void put_entry(std::string& out, const git_index_entry& entry, std::uint32_t size,
               std::string_view path, std::string_view last) {
  // Ten 32-bit fields, the id, the flags and, for some, the extended flags:
  // made whole on the stack and appended at once (100,000 entries a commit).
  std::array<char, 10 * 4 + GIT_OID_RAWSZ + 4> fixed{};
  char* at = fixed.data();
  for (const std::uint32_t field :
       {static_cast<std::uint32_t>(entry.ctime.seconds), entry.ctime.nanoseconds,
        static_cast<std::uint32_t>(entry.mtime.seconds), entry.mtime.nanoseconds, entry.dev,
        entry.ino, entry.mode, entry.uid, entry.gid, size}) {
    store_be32(at, field);
    at += 4;
  }
  std::memcpy(at, entry.id.id, GIT_OID_RAWSZ);
  at += GIT_OID_RAWSZ;
  const auto extended =
      static_cast<std::uint16_t>(entry.flags_extended & GIT_INDEX_ENTRY_EXTENDED_FLAGS);
  auto flags = static_cast<std::uint16_t>(
      (entry.flags & (GIT_INDEX_ENTRY_VALID | GIT_INDEX_ENTRY_STAGEMASK)) |
      std::min<std::size_t>(path.size(), GIT_INDEX_ENTRY_NAMEMASK));
  if (extended != 0) {
    flags |= GIT_INDEX_ENTRY_EXTENDED;
  }
  const auto store_be16 = [&at](std::uint16_t field) {
    *at++ = static_cast<char>(field >> 8);
    *at++ = static_cast<char>(field & 0xffU);
  };
  store_be16(flags);
  if (extended != 0) {
    store_be16(extended);
  }
  out.append(fixed.data(), static_cast<std::size_t>(at - fixed.data()));
  std::size_t same = 0;
  const std::size_t most = std::min(path.size(), last.size());
  while (same < most && path[same] == last[same]) {
    ++same;
  }
  put_varint(out, last.size() - same);
  out.append(path.substr(same));
  out += '\0';
}

// Whether the working file of `entry` holds the entry's blob, as its bytes
// (a link: its target). False when it is gone, of another kind, unreadable.
bool holds_blob(const fs::path& workdir, const git_index_entry& entry) {
  const fs::path path = workdir / entry.path;
  std::string bytes;
  if ((entry.mode & S_IFMT) == S_IFLNK) {
    std::array<char, 4096> target{};
    const ssize_t length = ::readlink(path.c_str(), target.data(), target.size());
    if (length < 0 || static_cast<std::size_t>(length) == target.size()) {
      return false;
    }
    bytes.assign(target.data(), static_cast<std::size_t>(length));
  } else {
    RegularFile::Failure failed{};
    auto file = RegularFile::open(path, failed);
    auto read = file ? file->read(std::numeric_limits<std::uintmax_t>::max()) : std::nullopt;
    if (!read) {
      return false;
    }
    bytes = std::move(*read);
  }
  git_oid id;
  return object_id(GIT_OBJECT_BLOB, bytes, id) && git_oid_equal(&id, &entry.id) != 0;
}

// Whether `entry` changed at or after `since` (the index on disk's mtime).
bool racy(const git_index_entry& entry, const struct timespec& since) {
  const auto seconds = static_cast<std::int64_t>(entry.mtime.seconds);
  return seconds > since.tv_sec ||
         (seconds == since.tv_sec && entry.mtime.nanoseconds >= since.tv_nsec);
}

// What replacing the file came to: 0, or a libgit2 code and why.
struct Replaced {
  int code = 0;
  std::string error;
};

Replaced failed(int code, const std::string& what, int error) {
  return Replaced{code, what + ": " + std::strerror(error)};
}

// Writes `bytes` to `lock`, created anew, flushes them to the device, and
// renames the lock over `file`. Another process's lock is waited out for up
// to `wait` (`git status` refreshing the index takes it for a moment); what
// it wrote is then replaced, since this index is the one HEAD's commit was
// made from. The file replaced is held open across the rename and closed
// after it (RetiredFiles).
Replaced replace(const fs::path& file, const fs::path& lock, const std::string& bytes,
                 std::chrono::milliseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  auto pause = std::chrono::milliseconds(1);
  int descriptor = -1;
  while ((descriptor = ::open(lock.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) < 0) {
    const int error = errno;
    if (error != EEXIST || std::chrono::steady_clock::now() >= deadline) {
      return failed(error == EEXIST ? GIT_ELOCKED : GIT_ERROR,
                    "failed to create locked file '" + lock.string() + "'", error);
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
  const auto give_up = [&](int code, const std::string& what, int error) {
    ::close(descriptor);
    ::unlink(lock.c_str());
    return failed(code, what, error);
  };
  // Flushed here, since the commit's last flush came before: an index cut
  // short by a power loss is one libgit2 refuses to read.
  if (!write_all(descriptor, bytes) || ::fdatasync(descriptor) != 0) {
    return give_up(GIT_ERROR, "failed to write '" + lock.string() + "'", errno);
  }
  RetiredFiles retired; // closed when this returns, after the rename
  retired.hold(file);
  if (::close(descriptor) != 0 || ::rename(lock.c_str(), file.c_str()) != 0) {
    const int error = errno;
    ::unlink(lock.c_str());
    return failed(GIT_ERROR, "failed to write the index '" + file.string() + "'", error);
  }
  return Replaced{};
}

} // namespace

// What the helper makes and does, and what it is told.
struct IndexFile::Made {
  enum class Told { nothing, publish, drop };

  fs::path file;
  fs::path marker; // behind_marker, once made: removed with the file in place
  std::chrono::milliseconds lock_wait{0}; // under mutex, with told

  std::vector<char> smudge; // per entry: written with size 0
  git_oid checksum{};

  std::mutex mutex;
  std::condition_variable changed;
  Told told = Told::nothing; // under mutex
  std::chrono::steady_clock::time_point told_at; // under mutex

  Replaced replaced; // once the helper is done
  bool conflicts = false; // the index holds some: nothing was written
  double took_ms = 0;
};

fs::path behind_marker(const fs::path& gitdir) { return gitdir / "engram-index-behind"; }

std::optional<IndexFile> IndexFile::start(git_repository* repository, git_index* index) {
  const char* file_name = git_index_path(index);
  const char* workdir = git_repository_workdir(repository);
  if (file_name == nullptr || workdir == nullptr || git_index_reuc_entrycount(index) != 0 ||
      git_index_name_entrycount(index) != 0 ||
      (git_index_caps(index) & GIT_INDEX_CAPABILITY_IGNORE_CASE) != 0) {
    return std::nullopt;
  }
  struct stat on_disk {};
  if (::stat(file_name, &on_disk) != 0) {
    return std::nullopt; // the first index: libgit2 knows no race without one
  }
  IndexFile made;
  made.m_made = std::make_unique<Made>();
  made.m_made->file = file_name;
  made.m_maker = std::jthread([&out = *made.m_made, index,
                               filters = may_filter_outside_index(repository),
                               root = fs::path(workdir), on_disk] {
    // Nothing is done until the commit is made: on two cores, with the
    // device's interrupts on one, the work would slow the commit's own.
    std::unique_lock lock(out.mutex);
    out.changed.wait(lock, [&] { return out.told != Made::Told::nothing; });
    if (out.told == Made::Told::drop) {
      return;
    }
    const auto published = out.told_at;
    const auto lock_wait = out.lock_wait;
    lock.unlock();
    std::vector<const git_index_entry*> entries(git_index_entrycount(index));
    for (std::size_t i = 0; i < entries.size(); ++i) {
      entries[i] = git_index_get_byindex(index, i);
      if (GIT_INDEX_ENTRY_STAGE(entries[i]) != 0) {
        out.conflicts = true; // left to libgit2 (finish)
        return;
      }
    }
    // The racily clean entries have their files read again. Where a filter
    // may apply, a file's bytes are not what git would hash: they are all
    // smudged then, unread.
    std::vector<std::size_t> suspects;
    bool filtered = filters;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const git_index_entry& entry = *entries[i];
      filtered = filtered || is_attributes_file(entry.path);
      if (entry.file_size != 0 && entry.mode != GIT_FILEMODE_COMMIT &&
          racy(entry, on_disk.st_mtim)) {
        suspects.push_back(i);
      }
    }
    out.smudge.assign(entries.size(), 0);
    for_each_index(suspects.size(), 64, [&](std::size_t k) {
      const std::size_t i = suspects[k];
      out.smudge[i] = filtered || !holds_blob(root, *entries[i]) ? 1 : 0;
    });
    std::string bytes; // the whole file, its checksum last
    bytes.reserve(static_cast<std::size_t>(on_disk.st_size) + 4096);
    bytes += "DIRC";
    put_be32(bytes, k_version);
    put_be32(bytes, static_cast<std::uint32_t>(entries.size()));
    std::string_view last;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const git_index_entry& entry = *entries[i];
      const std::string_view path = entry.path;
      put_entry(bytes, entry, out.smudge[i] != 0 ? 0 : entry.file_size, path, last);
      last = path;
    }
    if (!sha1({bytes}, out.checksum.id)) {
      out.replaced = Replaced{GIT_ERROR, "cannot hash the index"};
      return;
    }
    bytes.append(reinterpret_cast<const char*>(out.checksum.id), GIT_OID_RAWSZ);
    out.replaced = replace(out.file, fs::path(out.file.string() + ".lock"), bytes, lock_wait);
    if (out.replaced.code == 0 && !out.marker.empty()) {
      ::unlink(out.marker.c_str());
    }
    out.took_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - published)
            .count();
  });
  return made;
}

IndexFile::IndexFile() = default;
IndexFile::IndexFile(IndexFile&&) noexcept = default;

IndexFile::~IndexFile() {
  if (m_made) {
    const std::lock_guard lock(m_made->mutex);
    if (m_made->told == Made::Told::nothing) {
      m_made->told = Made::Told::drop;
    }
    m_made->changed.notify_one();
  }
  // m_maker joins.
}

void IndexFile::publish(std::chrono::milliseconds lock_wait) {
  const std::lock_guard lock(m_made->mutex);
  m_made->told = Made::Told::publish;
  m_made->lock_wait = lock_wait;
  m_made->told_at = std::chrono::steady_clock::now();
  m_made->changed.notify_one();
}

int IndexFile::mark_behind(const fs::path& gitdir) {
  const fs::path marker = behind_marker(gitdir);
  const int descriptor = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (descriptor < 0) {
    return fail(GIT_ERROR, "cannot create '" + marker.string() + "': " + std::strerror(errno));
  }
  ::close(descriptor);
  m_made->marker = marker;
  return 0;
}

bool IndexFile::locked() const {
  struct stat lock {};
  return ::lstat((m_made->file.string() + ".lock").c_str(), &lock) == 0;
}

double IndexFile::took_ms() const { return m_made->took_ms; }

int IndexFile::finish(git_index* index) {
  {
    const std::lock_guard lock(m_made->mutex);
    if (m_made->told != Made::Told::publish) {
      return 0;
    }
  }
  if (m_maker.joinable()) {
    m_maker.join();
  }
  const Made& made = *m_made;
  if (made.conflicts) {
    // Conflicts come with records (resolve-undo) only libgit2 writes. Found
    // by the helper, so a commit on a big index does not look for them: an
    // index with conflicts is rare (git's own merges are waited out).
    return git_index_write(index);
  }
  if (made.replaced.code != 0) {
    return fail(made.replaced.code, made.replaced.error);
  }
  // libgit2 reads its index again when the file's checksum is not the one it
  // keeps (git_index_read): it is told this one, since what it holds is what
  // the file now says. git_index_checksum points at that field.
  auto* kept = const_cast<git_oid*>(git_index_checksum(index)); // NOLINT: libgit2's own field
  git_oid_cpy(kept, &made.checksum);
  // The smudged entries keep size 0 in memory too, so the next write does
  // not give them their stat data back once they no longer look racy.
  for (std::size_t i = 0; i < made.smudge.size(); ++i) {
    if (made.smudge[i] != 0) {
      git_index_entry copy = *git_index_get_byindex(index, i);
      const std::string path = copy.path;
      copy.path = path.c_str();
      copy.file_size = 0;
      if (const int code = git_index_add(index, &copy); code != 0) {
        return code;
      }
    }
  }
  return 0;
}

} // namespace engram::git::detail
