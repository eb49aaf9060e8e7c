// Scan: read a store folder into its layers, diagnosing what cannot be read
// and never stopping at it.
#pragma once

#include "store/diagnostic.hpp"
#include "store/layout.hpp"
#include "store/memory_file.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

struct stat;

namespace engram::store {

// Limits on what a scan reads.
struct ScanLimits {
  std::uintmax_t max_file_bytes = 1024 * 1024; // larger files are diagnosed, not read
  std::size_t max_line_bytes = 64 * 1024;      // a file with a longer line is diagnosed, not read
};

// One readable memory file of a store.
struct Entry {
  std::filesystem::path relative; // path from the store root, e.g. episodic/2026-01-02-x.md
  Layer layer;
  // Shared, never changed: the daemon's scan cache and a run's model hold the
  // same parsed file, and a rule that changes it works on its own copy.
  std::shared_ptr<const MemoryFile> file;
  std::uintmax_t bytes = 0;             // size on disk
  std::string content_hash;             // hash of the bytes read, to detect changes before writing
  std::optional<std::int64_t> modified; // last modification, seconds since 1970-01-01 UTC
};

// A generated file the rules read back (the layout's .index.json, which the
// index rule compares its new rendering with): its bytes, their hash, and
// the bytes parsed as a memory file.
struct GeneratedFile {
  std::shared_ptr<const std::string> bytes;
  std::string content_hash;
  std::shared_ptr<const MemoryFile> file;
};

// What a scan found: the usable files, by path order, and the diagnostics.
struct Snapshot {
  std::filesystem::path root;
  std::vector<Entry> entries;
  std::vector<Diagnostic> diagnostics;     // errors (file skipped) and warnings (field ignored)
  std::optional<GeneratedFile> index_json; // nullopt: none, or not readable as a file
  // Set by a scan asked for the looked-at files only (Entries::looked_at)
  // that could take every other file from the cache: the store-relative
  // paths it looked at. `entries` then hold only those of them that are
  // memory files now; `diagnostics` are still the whole store's.
  std::optional<std::vector<std::string>> looked_at;

  // The entries of one layer, in path order.
  std::vector<const Entry*> in(Layer layer) const;

  // The entry at a store-relative path, or nullptr.
  const Entry* find(const std::filesystem::path& relative) const;

  // The number of error diagnostics (files that could not be used).
  std::size_t error_count() const;
};

// What a file was on disk when it was read: a change to its bytes changes its
// size, its mtime or at least its ctime (which no one can set back).
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

// The identity stat() or fstat() gave.
FileIdentity identity_of(const struct stat& info);

// The files a scan read and parsed, kept by a long-running process (the
// daemon, one per store) so the next scan of the store reuses every file
// whose identity is unchanged instead of reading and parsing it again. Only
// files whose ctime was at least `settled_ns` old when read are kept: a file
// written again within the same timestamp tick could otherwise look unchanged
// (git's "racily clean" problem). Files that were diagnosed are never kept.
struct ScanCache {
  std::int64_t settled_ns = 2'000'000'000; // tests set 0 to keep files just written
  struct Item {
    FileIdentity identity;
    Entry entry;
    std::vector<Diagnostic> warnings; // what parsing it warned about, given again on reuse
  };
  std::unordered_map<std::string, Item> items; // by store-relative path
  // What the last scan saw but could not keep (written too recently,
  // diagnosed, a symlink whose target may change unseen): a scan told what
  // changed looks at these again whether or not they are named.
  std::vector<std::string> unkept;
  // The kept files whose parsing warned: their warnings are the whole
  // store's diagnostics with the looked-at files', without going through
  // every item.
  std::set<std::string> warned;
  // .index.json as the last scan read it (megabytes in a big store: read,
  // hashed and parsed again only when its identity changes).
  std::optional<std::pair<FileIdentity, GeneratedFile>> index_json;
  bool complete = false;  // the last scan finished, so items + unkept are the whole store
  std::size_t reused = 0; // by the last scan, for the debug log
};

// Reads every memory file under `root`. Skips `.git` and the state folder;
// a file that is unreadable, oversized, binary, invalid UTF-8, unparseable,
// a symlink leaving the store (or looping), named with control characters or
// invalid UTF-8, or holding what looks like a credential becomes a diagnostic
// and is not read further. Never reads more than the limit from any file.
// With a `cache`, unchanged files come from it and it is left holding exactly
// this scan's files. With `changed` as well — the store-relative paths that
// may have changed since that cache's last scan, as a watcher reports them —
// only those paths and the cache's `unkept` ones are looked at; every other
// file is taken from the cache without so much as a stat, and no folder is
// listed. A named path that is a folder, or a cache that is not `complete`,
// makes it the whole walk.
// With `Entries::looked_at` as well, such a scan leaves out the files it took
// from the cache and says which it looked at (Snapshot::looked_at), for a
// caller that keeps the last scan's model and updates it by path.
enum class Entries { all, looked_at };
Snapshot scan(const std::filesystem::path& root, const Layout& layout, const ScanLimits& limits,
              ScanCache* cache = nullptr, const std::vector<std::string>* changed = nullptr,
              Entries wanted = Entries::all);

// A store-relative path as diagnostics show it: control characters and bytes
// that are not UTF-8 escaped (\n, \xNN), so one diagnostic stays one line.
std::string printable_path(std::string_view path);

// Why a store-relative path is not a usable memory file name (a control
// character, invalid UTF-8), or nullopt when it is one.
std::optional<std::string> bad_file_name(std::string_view path);

// The hash used for Entry::content_hash (stable across runs and machines).
std::string content_hash(std::string_view bytes);

} // namespace engram::store
