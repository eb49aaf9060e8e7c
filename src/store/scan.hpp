// Scan: read a store folder into its layers, diagnosing what cannot be read
// and never stopping at it.
#pragma once

#include "store/diagnostic.hpp"
#include "store/layout.hpp"
#include "store/memory_file.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace engram::store {

// Limits on what a scan reads.
struct ScanLimits {
  std::uintmax_t max_file_bytes = 1024 * 1024; // larger files are diagnosed, not read
};

// One readable memory file of a store.
struct Entry {
  std::filesystem::path relative; // path from the store root, e.g. episodic/2026-01-02-x.md
  Layer layer;
  MemoryFile file;
  std::uintmax_t bytes = 0;       // size on disk
  std::string content_hash;       // hash of the bytes read, to detect changes before writing
};

// What a scan found: the usable files, by path order, and the diagnostics.
struct Snapshot {
  std::filesystem::path root;
  std::vector<Entry> entries;
  std::vector<Diagnostic> diagnostics; // errors (file skipped) and warnings (field ignored)

  // The entries of one layer, in path order.
  std::vector<const Entry*> in(Layer layer) const;

  // The entry at a store-relative path, or nullptr.
  const Entry* find(const std::filesystem::path& relative) const;

  // The number of error diagnostics (files that could not be used).
  std::size_t error_count() const;
};

// Reads every memory file under `root`. Skips `.git` and the state folder;
// a file that is unreadable, oversized, binary, invalid UTF-8, unparseable,
// or a symlink leaving the store becomes a diagnostic and is not read further.
Snapshot scan(const std::filesystem::path& root, const Layout& layout, const ScanLimits& limits);

// The hash used for Entry::content_hash (stable across runs and machines).
std::string content_hash(std::string_view bytes);

} // namespace engram::store
