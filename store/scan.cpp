// Scan: walking a store folder. Every file is checked before it is parsed, and
// every failure becomes a diagnostic for that one file; the walk goes on.
#include "store/scan.hpp"

#include "base/parallel.hpp"
#include "base/regular_file.hpp"
#include "base/sha1.hpp"
#include "base/utf8.hpp"
#include "store/conflict_markers.hpp"
#include "store/secrets.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fmt/format.h>
#include <fmt/std.h>
#include <limits>
#include <set>
#include <sys/stat.h>

namespace engram::store {
namespace fs = std::filesystem;
namespace {

// Walks the store, collecting what it finds.
class Walker {
public:
  Walker(const fs::path& root, const Layout& layout, const ScanLimits& limits, Snapshot& out,
         ScanCache* cache)
      : m_root(root), m_layout(layout), m_limits(limits), m_out(out), m_cache(cache),
        m_settled_before(cache == nullptr ? 0 : now_ns() - cache->settled_ns) {
    std::error_code ec;
    m_canonical_root = fs::canonical(root, ec);
    if (ec) {
      m_canonical_root = fs::absolute(root).lexically_normal();
    }
  }

  // Visits one folder (recursively) relative to the root.
  void walk(const fs::path& relative) {
    std::error_code ec;
    fs::directory_iterator it(m_root / relative, fs::directory_options::none, ec);
    if (ec) {
      diagnose(relative, 1, fmt::format("cannot read folder: {}", ec.message()));
      return;
    }
    std::vector<fs::directory_entry> children;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) {
        diagnose(relative, 1, fmt::format("cannot list folder: {}", ec.message()));
        break;
      }
      children.push_back(*it);
    }
    std::sort(children.begin(), children.end(), [](const auto& a, const auto& b) {
      return a.path().filename() < b.path().filename();
    });
    for (const auto& child : children) {
      visit(relative / child.path().filename(), child);
    }
  }

  // Looks at `changed` and the cache's unkept paths only, taking every other
  // file from the cache as it is. False, having taken nothing, when a path
  // cannot be looked at alone (a folder there now): walk() instead.
  bool revisit(const std::vector<std::string>& changed, Entries wanted) {
    std::set<std::string> look(m_cache->unkept.begin(), m_cache->unkept.end());
    for (const auto& path : changed) {
      look.insert(fs::path(path).lexically_normal().generic_string());
    }
    std::vector<std::pair<fs::path, fs::directory_entry>> found;
    for (const auto& path : look) {
      const fs::path relative(path);
      if (!walked_into(relative)) {
        continue;
      }
      std::error_code ec;
      const fs::directory_entry child(m_root / relative, ec);
      if (ec || !child.exists(ec)) {
        continue; // gone: it is left out of this scan and of the cache
      }
      if (!child.is_symlink(ec) && child.is_directory(ec)) {
        return false;
      }
      found.emplace_back(relative, child);
    }
    // The cache becomes what this scan keeps, in place; the looked-at
    // files' old items stay where reuse() finds them.
    m_kept = std::move(m_cache->items);
    m_cache->items.clear();
    for (const auto& path : look) {
      if (auto node = m_kept.extract(path)) {
        m_cache->items.insert(std::move(node));
      }
    }
    for (const auto& path : m_cache->warned) {
      if (const auto it = m_kept.find(path); it != m_kept.end()) {
        m_warned.insert(path);
        m_out.diagnostics.insert(m_out.diagnostics.end(), it->second.warnings.begin(),
                                 it->second.warnings.end());
      }
    }
    if (wanted == Entries::looked_at) {
      m_out.looked_at.emplace(look.begin(), look.end());
    } else {
      m_out.entries.reserve(m_kept.size() + found.size());
      for (const auto& [path, item] : m_kept) {
        m_out.entries.push_back(item.entry);
      }
    }
    m_reused = m_kept.size();
    for (const auto& [relative, child] : found) {
      visit(relative, child);
    }
    return true;
  }

private:
  // True when walk() would reach `relative`: every folder on the way a real
  // folder (not a link), none of them .git or, at the top, the state folder.
  bool walked_into(const fs::path& relative) const {
    if (relative.empty() || relative.is_absolute() || relative.filename().empty()) {
      return false;
    }
    fs::path folder;
    bool top = true;
    for (const auto& part : relative.parent_path()) {
      const std::string name = part.string();
      if (name == ".." || name == "." || name == ".git" || (top && name == m_layout.state)) {
        return false;
      }
      folder /= part;
      top = false;
      struct stat seen {};
      if (::lstat((m_root / folder).c_str(), &seen) != 0 || !S_ISDIR(seen.st_mode)) {
        return false;
      }
    }
    const std::string name = relative.filename().string();
    return name != ".git" && !(relative.has_parent_path() == false && name == m_layout.state);
  }

  void visit(const fs::path& relative, const fs::directory_entry& child) {
    const auto name = relative.filename().string();
    std::error_code ec;
    const bool is_link = child.is_symlink(ec);
    if (!is_link && child.is_directory(ec)) {
      if (name == ".git" || (relative.has_parent_path() == false && name == m_layout.state)) {
        return; // git's data and engram's own state are not memories
      }
      walk(relative);
      return;
    }
    if (is_link && fs::is_directory(m_root / relative, ec)) {
      // A folder reached through a link is not walked: it may be anywhere.
      const auto target = fs::canonical(m_root / relative, ec);
      diagnose(relative, 1,
               fmt::format("symlink to a folder (to {}); not walked",
                           printable_path(ec ? std::string("?") : target.string())));
      return;
    }
    const auto layer = m_layout.classify(relative);
    if (!layer) {
      return; // not a memory file (README.md at the root, .gitkeep, .index.json, ...)
    }
    if (const auto why = bad_file_name(relative.string())) {
      diagnose(relative, 1, *why);
      return;
    }
    fs::path source = m_root / relative;
    if (is_link) {
      const auto target = fs::canonical(m_root / relative, ec);
      if (ec) {
        diagnose(relative, 1,
                 ec == std::errc::too_many_symbolic_link_levels
                     ? std::string("symlink loop; not read")
                     : fmt::format("broken symlink ({}); not read", ec.message()));
        return;
      }
      const auto [root_end, target_it] = std::mismatch(
          m_canonical_root.begin(), m_canonical_root.end(), target.begin(), target.end());
      if (root_end != m_canonical_root.end()) {
        diagnose(relative, 1,
                 fmt::format("symlink leaves the store (to {}); not read",
                             printable_path(target.string())));
        return;
      }
      if (fs::is_directory(target, ec)) {
        return;
      }
      source = target;  // read what the link names, opened without following any further link
      unkept(relative); // its target can change under another name
    } else if (!child.is_regular_file(ec)) {
      diagnose(relative, 1, "not a regular file; not read");
      return;
    }
    read(relative, source, *layer);
  }

  // A file to read, queued by the walk: reading and parsing are the slow
  // part of a scan, and they run on every core (load_queued).
  struct Queued {
    fs::path relative;
    fs::path source;
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

  // Queues `source` to be read, unless the cache already holds it: one
  // lstat answers for such a file instead of an open, an fstat and a close,
  // and most files of a big store are unchanged.
  void read(const fs::path& relative, const fs::path& source, Layer layer) {
    struct stat seen {};
    if (m_cache != nullptr && ::lstat(source.c_str(), &seen) == 0 && S_ISREG(seen.st_mode) &&
        reuse(relative, identity_of(seen))) {
      return;
    }
    m_queued.push_back(Queued{relative, source, layer});
  }

public:
  // Reads and parses every queued file, on as many threads as there are
  // cores when there are enough files to share, then takes the results in
  // the order the walk queued them, so a scan's output does not depend on
  // which thread read what.
  void load_queued() {
    std::vector<Loaded> loaded(m_queued.size());
    constexpr std::size_t k_files_per_thread = 64; // fewer: a thread costs more than it saves
    for_each_index(m_queued.size(), k_files_per_thread,
                   [&](std::size_t i) { loaded[i] = load(m_queued[i]); });
    for (std::size_t i = 0; i < m_queued.size(); ++i) {
      take(m_queued[i], std::move(loaded[i]));
    }
    m_queued.clear();
  }

private:
  // Reads at most the size limit (and one byte more, to know it was over)
  // from `file.source`, refusing anything that is not a regular file when
  // opened. Reads the walker's settings and the cache, changes nothing.
  Loaded load(const Queued& queued, CacheLookup lookup = CacheLookup::yes) const {
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

  // Takes what loading one file gave into the snapshot and the cache.
  void take(const Queued& queued, Loaded loaded) {
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

  // Takes the file from the cache when it is there with the same identity.
  bool reuse(const fs::path& relative, const FileIdentity& identity) {
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

public:
  // Reads the generated .index.json, from the cache when its identity is the same.
  void read_index_json() {
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

  // Leaves the cache holding this scan's files only.
  void finish() {
    if (m_cache != nullptr) {
      m_cache->items = std::move(m_kept);
      m_cache->unkept.assign(m_unkept.begin(), m_unkept.end());
      m_cache->warned = std::move(m_warned);
      m_cache->complete = true;
      m_cache->reused = m_reused;
    }
  }

private:
  void unkept(const fs::path& relative) {
    if (m_cache != nullptr) {
      m_unkept.insert(relative.generic_string());
    }
  }

  static std::int64_t now_ns() {
    struct timespec now {};
    ::clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
  }

  std::string over_limit(std::uintmax_t size) const {
    return fmt::format("file is {} bytes, over the limit of {} (scan.max_file_bytes); not read",
                       size, m_limits.max_file_bytes);
  }

  // The first line longer than the limit: its 1-based number and length.
  std::optional<std::pair<int, std::size_t>> long_line(std::string_view text) const {
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

  std::string display(const fs::path& relative) const {
    return printable_path((m_root / relative).string());
  }

  void diagnose(const fs::path& relative, int line, std::string reason) {
    unkept(relative);
    m_out.diagnostics.push_back(
        Diagnostic{display(relative), line, std::move(reason), Severity::error});
  }

  const fs::path& m_root;
  fs::path m_canonical_root;
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

// The order of fs::path's operator< (folder by folder) for the relative
// paths a walk makes, without splitting them into components: '/' sorts
// before every other byte, so a folder's name that is a prefix of another
// name sorts first, as a shorter component does.
bool path_less(const fs::path& a, const fs::path& b) {
  const std::string& x = a.native();
  const std::string& y = b.native();
  const std::size_t n = std::min(x.size(), y.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (x[i] == y[i]) {
      continue;
    }
    if (x[i] == '/' || y[i] == '/') {
      return x[i] == '/';
    }
    return static_cast<unsigned char>(x[i]) < static_cast<unsigned char>(y[i]);
  }
  return x.size() < y.size();
}

} // namespace

Snapshot scan(const fs::path& root, const Layout& layout, const ScanLimits& limits,
              ScanCache* cache, const std::vector<std::string>* changed, Entries wanted) {
  Snapshot snapshot;
  snapshot.root = root;
  Walker walker(root, layout, limits, snapshot, cache);
  const bool told = changed != nullptr && cache != nullptr && cache->complete;
  if (!told || !walker.revisit(*changed, wanted)) {
    walker.walk({});
  }
  walker.load_queued();
  walker.read_index_json();
  walker.finish();
  std::sort(snapshot.entries.begin(), snapshot.entries.end(),
            [](const Entry& a, const Entry& b) { return path_less(a.relative, b.relative); });
  std::stable_sort(snapshot.diagnostics.begin(), snapshot.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return std::tie(a.path, a.line) < std::tie(b.path, b.line);
                   });
  return snapshot;
}

FileIdentity identity_of(const struct stat& info) {
  return FileIdentity{
      static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
      static_cast<std::int64_t>(info.st_size),
      static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec,
      static_cast<std::int64_t>(info.st_ctim.tv_sec) * 1'000'000'000 + info.st_ctim.tv_nsec};
}

std::vector<const Entry*> Snapshot::in(Layer layer) const {
  std::vector<const Entry*> out;
  for (const auto& entry : entries) {
    if (entry.layer == layer) {
      out.push_back(&entry);
    }
  }
  return out;
}

const Entry* Snapshot::find(const fs::path& relative) const {
  const auto normal = relative.lexically_normal();
  for (const auto& entry : entries) {
    if (entry.relative == normal) {
      return &entry;
    }
  }
  return nullptr;
}

std::size_t Snapshot::error_count() const {
  return static_cast<std::size_t>(
      std::count_if(diagnostics.begin(), diagnostics.end(),
                    [](const auto& d) { return d.severity == Severity::error; }));
}

std::string printable_path(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  while (!path.empty()) {
    const auto bad = first_invalid_utf8(path);
    const std::size_t good = bad ? *bad : path.size();
    for (const char c : path.substr(0, good)) {
      const auto byte = static_cast<unsigned char>(c);
      if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\r') {
        out += "\\r";
      } else if (byte < 0x20 || byte == 0x7f) {
        out += fmt::format("\\x{:02x}", byte);
      } else {
        out += c;
      }
    }
    if (!bad) {
      break;
    }
    out += fmt::format("\\x{:02x}", static_cast<unsigned char>(path[good]));
    path.remove_prefix(good + 1);
  }
  return out;
}

std::optional<std::string> bad_file_name(std::string_view path) {
  if (std::any_of(path.begin(), path.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; })) {
    return "the file name has a control character (a newline, a tab, ...); not read";
  }
  if (first_invalid_utf8(path)) {
    return "the file name is not valid UTF-8; not read";
  }
  return std::nullopt;
}

std::string content_hash(std::string_view bytes) {
  // The git blob id: the same value `git hash-object` prints, so a plan's
  // hashes can be checked against the repository as well as the disk.
  // Every file a scan reads is hashed: by OpenSSL, not libgit2's slower
  // collision-detecting SHA-1 (base/sha1.hpp).
  const std::string header = "blob " + std::to_string(bytes.size()) + '\0';
  std::array<unsigned char, k_sha1_bytes> digest{};
  if (!sha1({header, bytes}, digest.data())) {
    throw std::runtime_error("SHA-1 failed");
  }
  constexpr std::string_view k_hex = "0123456789abcdef";
  std::string hex(2 * digest.size(), '0');
  for (std::size_t i = 0; i < digest.size(); ++i) {
    hex[2 * i] = k_hex[digest[i] >> 4];
    hex[2 * i + 1] = k_hex[digest[i] & 0x0f];
  }
  return hex;
}

} // namespace engram::store
