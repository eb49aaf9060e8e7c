// Atomic writes: a file replaced whole or not at all. The bytes go to a
// temporary file beside it, which is flushed and renamed into place, and the
// folder is flushed; a check of the file's bytes just before the rename keeps
// a writer's change made meanwhile. Also the content hash and identity of a
// file on disk, by which apply tells whether anyone wrote it since it was read.
#pragma once

#include "store/scan.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace engram::engine {

// Writes `bytes` to `path` atomically: temporary file in the same folder,
// fsync, rename, fsync of the folder. Throws engram::Error on failure.
void write_atomically(const std::filesystem::path& path, std::string_view bytes);
// The same for `parts`, written one after the other: a large text spliced
// from parts is not copied into one string first.
void write_atomically(const std::filesystem::path& path,
                      std::initializer_list<std::string_view> parts);

// Whether write_atomically_over requires the file to be as it was read.
enum class Unchanged { required, any };

// write_atomically, but with Unchanged::required only when the file still has
// the content hash `base_hash` (nullopt: still absent) just before the rename;
// false, with nothing written, when another writer changed it meanwhile.
// `place`, when given, puts the temporary (its path) in place after that
// check instead of a rename (a memory file's replaced bytes are kept under a
// second name there: ReplacedFiles::replace).
[[nodiscard]] bool
write_atomically_over(const std::filesystem::path& path, std::string_view bytes,
                      const std::optional<std::string>& base_hash, Unchanged check,
                      const std::function<void(const std::filesystem::path&)>& place = {});

// The content hash (git blob id) of the file at `path`; nullopt when nothing is there.
std::optional<std::string> disk_hash(const std::filesystem::path& path);

// A file on disk as it was hashed: its content hash and the stat fields that
// any write to it, or any file put in its place, changes.
struct DiskState {
  std::optional<std::string> hash; // nullopt: nothing was there
  bool stable = true;              // false: read or stat failed; never trusted unhashed
  store::FileIdentity identity;    // what fstat said of the file hashed
  std::int64_t taken_ns = 0;       // when it was looked at
};

// Hashes the file at `path` (following a link, as reading it does) and notes
// its identity.
DiskState disk_state(const std::filesystem::path& path);

// True when one stat shows the file at `path` is still the one `state` hashed:
// the same identity and times, both older than a clock tick before the look
// (a change within the tick could leave them equal). False means "hash again".
bool unchanged_since(const std::filesystem::path& path, const DiskState& state);

// Flushes the whole file system holding the folder `path` (syncfs): one call
// that makes many files durable. Throws engram::Error on failure.
void sync_filesystem(const std::filesystem::path& path);

// True for the name of a temporary file write_atomically makes
// (`.<name>.XXXXXX.tmp`): one left behind means a run died mid-write.
bool is_temporary_name(std::string_view filename);

} // namespace engram::engine
