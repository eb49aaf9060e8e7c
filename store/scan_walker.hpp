// The walker behind scan(), private to store/: the walk over the folders
// (scan.cpp) and the reading of the files it found (scan_read.cpp) share its
// state, the snapshot being filled and the cache being kept.
#pragma once

#include "store/scan.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace engram::store::detail {

// Walks the store, collecting what it finds.
class Walker {
public:
  Walker(const std::filesystem::path& root, const Layout& layout, const ScanLimits& limits,
         Snapshot& out, ScanCache* cache);

  // Visits one folder (recursively) relative to the root.
  void walk(const std::filesystem::path& relative);

  // Looks at `changed` and the cache's unkept paths only, taking every other
  // file from the cache as it is. False, having taken nothing, when a path
  // cannot be looked at alone (a folder there now): walk() instead.
  bool revisit(const std::vector<std::string>& changed, Entries wanted);

  // Reads and parses every queued file, on as many threads as there are
  // cores when there are enough files to share, then takes the results in
  // the order the walk queued them, so a scan's output does not depend on
  // which thread read what.
  void load_queued();

  // Reads the generated .index.json, from the cache when its identity is the same.
  void read_index_json();

  // Leaves the cache holding this scan's files only.
  void finish();

private:
  // A file to read, queued by the walk: reading and parsing are the slow
  // part of a scan, and they run on every core (load_queued).
  struct Queued {
    std::filesystem::path relative;
    std::filesystem::path source;
    Layer layer;
  };

  // Whether loading a file may answer "the cache holds it".
  enum class CacheLookup { yes, no };

  // What reading one queued file gave, made without touching the walker's
  // state so that files can be read side by side.
  struct Loaded {
    std::optional<std::pair<int, std::string>> failure; // line and reason: diagnosed
    std::optional<Diagnostic> parse_error;              // the parser's own diagnostic
    bool cached = false;                                // the cache holds it as it is
    FileIdentity identity;
    std::optional<MemoryFile> parsed;
    std::uintmax_t bytes = 0;
    std::string hash;
  };

  // True when walk() would reach `relative`: every folder on the way a real
  // folder (not a link), none of them .git or, at the top, the state folder.
  bool walked_into(const std::filesystem::path& relative) const;

  void visit(const std::filesystem::path& relative, const std::filesystem::directory_entry& child);

  // Queues `source` to be read, unless the cache already holds it: one
  // lstat answers for such a file instead of an open, an fstat and a close,
  // and most files of a big store are unchanged.
  void read(const std::filesystem::path& relative, const std::filesystem::path& source,
            Layer layer);

  // Reads at most the size limit (and one byte more, to know it was over)
  // from `file.source`, refusing anything that is not a regular file when
  // opened. Reads the walker's settings and the cache, changes nothing.
  Loaded load(const Queued& queued, CacheLookup lookup = CacheLookup::yes) const;

  // Takes what loading one file gave into the snapshot and the cache.
  void take(const Queued& queued, Loaded loaded);

  // Takes the file from the cache when it is there with the same identity.
  bool reuse(const std::filesystem::path& relative, const FileIdentity& identity);

  void unkept(const std::filesystem::path& relative);

  static std::int64_t now_ns();

  std::string over_limit(std::uintmax_t size) const;

  // The first line longer than the limit: its 1-based number and length.
  std::optional<std::pair<int, std::size_t>> long_line(std::string_view text) const;

  std::string display(const std::filesystem::path& relative) const;

  void diagnose(const std::filesystem::path& relative, int line, std::string reason);

  const std::filesystem::path& m_root;
  std::filesystem::path m_canonical_root;
  const Layout& m_layout;
  const ScanLimits& m_limits;
  Snapshot& m_out;
  ScanCache* m_cache;
  std::int64_t m_settled_before; // a file changed since then is not kept
  std::unordered_map<std::string, ScanCache::Item> m_kept;
  std::set<std::string> m_unkept;
  std::set<std::string> m_warned; // kept files with warnings (ScanCache::warned)
  std::size_t m_reused = 0;
  std::vector<Queued> m_queued; // files the walk found to read, in its order
};

} // namespace engram::store::detail
