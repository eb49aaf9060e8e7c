// Reading the files a scan's walk found: each is checked before it is parsed
// (size, line length, hard links, conflict markers, credentials), read on
// every core, and taken from the scan cache when its identity is unchanged.
// Every failure becomes a diagnostic for that one file.
#include "base/parallel.hpp"
#include "base/regular_file.hpp"
#include "store/conflict_markers.hpp"
#include "store/scan_walker.hpp"
#include "store/secrets.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fmt/std.h>
#include <limits>
#include <sys/stat.h>

namespace engram::store {
namespace fs = std::filesystem;
namespace detail {

void Walker::read(const fs::path& relative, const fs::path& source, Layer layer) {
  struct stat seen {};
  if (m_cache != nullptr && ::lstat(source.c_str(), &seen) == 0 && S_ISREG(seen.st_mode) &&
      reuse(relative, identity_of(seen))) {
    return;
  }
  m_queued.push_back(Queued{relative, source, layer});
}

void Walker::load_queued() {
  std::vector<Loaded> loaded(m_queued.size());
  constexpr std::size_t k_files_per_thread = 64; // fewer: a thread costs more than it saves
  for_each_index(m_queued.size(), k_files_per_thread,
                 [&](std::size_t i) { loaded[i] = load(m_queued[i]); });
  for (std::size_t i = 0; i < m_queued.size(); ++i) {
    take(m_queued[i], std::move(loaded[i]));
  }
  m_queued.clear();
}

Walker::Loaded Walker::load(const Queued& queued, CacheLookup lookup) const {
  Loaded out;
  const auto fail = [&](int line, std::string reason) {
    out.failure.emplace(line, std::move(reason));
    return std::move(out);
  };
  // A credential used as a file name would reach the tree and the index.
  if (const auto secret = find_secret(queued.relative.generic_string())) {
    return fail(1, fmt::format("its name looks like {}; the file is not read and is kept out "
                               "of commits",
                               secret->kind));
  }
  RegularFile::Failure failure{};
  auto file = RegularFile::open(queued.source, failure);
  if (!file) {
    return fail(1, failure == RegularFile::Failure::is_link
                       ? std::string("changed into a symlink while being read; not read")
                   : failure == RegularFile::Failure::not_regular
                       ? std::string("not a regular file; not read")
                       : fmt::format("cannot read: {}", std::strerror(errno)));
  }
  if (file->info().st_nlink > 1) {
    // Another name for the same bytes may be outside the store.
    return fail(1, fmt::format("has {} hard links, so its bytes may be a file's outside the "
                               "store; not read",
                               file->info().st_nlink));
  }
  out.identity = identity_of(file->info());
  if (m_cache != nullptr && lookup == CacheLookup::yes) {
    const auto it = m_cache->items.find(queued.relative.string());
    if (it != m_cache->items.end() && it->second.identity == out.identity) {
      out.cached = true;
      return out;
    }
  }
  const auto limit = m_limits.max_file_bytes;
  if (static_cast<std::uintmax_t>(out.identity.size) > limit) {
    return fail(1, over_limit(static_cast<std::uintmax_t>(out.identity.size)));
  }
  const auto read = file->read(limit);
  if (!read) {
    return fail(1, fmt::format("cannot read: {}", std::strerror(errno)));
  }
  const std::string& content = *read;
  if (content.size() > limit) { // it grew while being read
    return fail(1, over_limit(content.size()));
  }
  if (const auto line = long_line(content)) {
    return fail(line->first, fmt::format("line is {} bytes long, over the limit of {}; not read",
                                         line->second, m_limits.max_line_bytes));
  }
  if (const auto conflict = conflict_marker_line(content)) {
    return fail(*conflict, "holds git's conflict markers (<<<<<<<, =======, >>>>>>>); not read "
                           "and not committed until the conflict is resolved");
  }
  if (const auto secret = find_secret(content)) {
    return fail(secret->line,
                fmt::format("looks like {}; the file is not read and is kept out of commits",
                            secret->kind));
  }
  auto parsed = MemoryFile::parse(display(queued.relative), content);
  if (!parsed) {
    out.parse_error = std::move(parsed.error());
    return out;
  }
  out.parsed.emplace(std::move(parsed.value()));
  out.bytes = content.size();
  out.hash = content_hash(content);
  return out;
}

void Walker::take(const Queued& queued, Loaded loaded) {
  const fs::path& relative = queued.relative;
  Layer layer = queued.layer;
  if (loaded.cached) {
    if (reuse(relative, loaded.identity)) {
      return;
    }
    loaded = load(queued, CacheLookup::no); // cannot happen: the cache is as load saw it
  }
  if (loaded.failure) {
    diagnose(relative, loaded.failure->first, std::move(loaded.failure->second));
    return;
  }
  if (loaded.parse_error) {
    m_out.diagnostics.push_back(std::move(*loaded.parse_error));
    unkept(relative);
    return;
  }
  if (!loaded.parsed) {
    return;
  }
  for (const auto& warning : loaded.parsed->field_diagnostics()) {
    m_out.diagnostics.push_back(warning);
  }
  // The mtime from the same fstat as the bytes: what breaks a tie between
  // equal `created` dates.
  const std::int64_t modified = loaded.identity.mtime_ns / 1'000'000'000;
  if (!m_layout.root_types.empty()) {
    layer = m_layout.classify(relative, loaded.parsed->field("type")).value_or(layer);
  }
  m_out.entries.push_back(Entry{relative, layer,
                                std::make_shared<const MemoryFile>(std::move(*loaded.parsed)),
                                loaded.bytes, std::move(loaded.hash), modified});
  if (m_cache != nullptr && loaded.identity.ctime_ns < m_settled_before) {
    const auto& warnings = m_out.entries.back().file->field_diagnostics();
    if (!warnings.empty()) {
      m_warned.insert(relative.string());
    }
    m_kept.insert_or_assign(relative.string(),
                            ScanCache::Item{loaded.identity, m_out.entries.back(), warnings});
  } else {
    unkept(relative);
  }
}

bool Walker::reuse(const fs::path& relative, const FileIdentity& identity) {
  if (m_cache == nullptr) {
    return false;
  }
  const auto it = m_cache->items.find(relative.string());
  if (it == m_cache->items.end() || it->second.identity != identity) {
    return false;
  }
  m_out.entries.push_back(it->second.entry);
  m_out.diagnostics.insert(m_out.diagnostics.end(), it->second.warnings.begin(),
                           it->second.warnings.end());
  if (!it->second.warnings.empty()) {
    m_warned.insert(relative.string());
  }
  m_kept.insert_or_assign(relative.string(), std::move(it->second));
  ++m_reused;
  return true;
}

void Walker::read_index_json() {
  const fs::path path = m_root / m_layout.index_json;
  struct stat seen {};
  if (::lstat(path.c_str(), &seen) != 0 || !S_ISREG(seen.st_mode)) {
    return;
  }
  const FileIdentity identity = identity_of(seen);
  if (m_cache != nullptr && m_cache->index_json && m_cache->index_json->first == identity) {
    m_out.index_json = m_cache->index_json->second;
    return;
  }
  RegularFile::Failure failure{};
  auto file = RegularFile::open(path, failure);
  if (!file) {
    return;
  }
  auto bytes = file->read(std::numeric_limits<std::uintmax_t>::max());
  if (!bytes) {
    return;
  }
  auto parsed = MemoryFile::parse(m_layout.index_json, *bytes);
  if (!parsed) {
    return; // the index rule writes it again from the memories
  }
  GeneratedFile generated{std::make_shared<const std::string>(std::move(*bytes)),
                          {},
                          std::make_shared<const MemoryFile>(std::move(parsed.value()))};
  generated.content_hash = content_hash(*generated.bytes);
  const FileIdentity read_as = identity_of(file->info());
  if (m_cache != nullptr) {
    if (read_as.ctime_ns < m_settled_before) {
      m_cache->index_json.emplace(read_as, generated);
    } else {
      m_cache->index_json.reset();
    }
  }
  m_out.index_json = std::move(generated);
}

std::string Walker::over_limit(std::uintmax_t size) const {
  return fmt::format("file is {} bytes, over the limit of {} (scan.max_file_bytes); not read", size,
                     m_limits.max_file_bytes);
}

std::optional<std::pair<int, std::size_t>> Walker::long_line(std::string_view text) const {
  int number = 1;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    if (end - pos > m_limits.max_line_bytes) {
      return std::pair{number, end - pos};
    }
    pos = end + 1;
    ++number;
  }
  return std::nullopt;
}

} // namespace detail
} // namespace engram::store
