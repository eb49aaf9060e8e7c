// Scan: walking a store folder. Every file is checked before it is parsed
// (scan_read.cpp), and every failure becomes a diagnostic for that one file;
// the walk goes on.
#include "store/scan.hpp"

#include "base/platform.hpp"
#include "base/sha1.hpp"
#include "base/utf8.hpp"
#include "store/scan_walker.hpp"

#include <algorithm>
#include <array>
#include <ctime>
#include <fmt/format.h>
#include <fmt/std.h>
#include <set>
#include <sys/stat.h>

namespace engram::store {
namespace fs = std::filesystem;
namespace detail {

Walker::Walker(const fs::path& root, const Layout& layout, const ScanLimits& limits, Snapshot& out,
               ScanCache* cache)
    : m_root(root), m_layout(layout), m_limits(limits), m_out(out), m_cache(cache),
      m_settled_before(cache == nullptr ? 0 : now_ns() - cache->settled_ns) {
  std::error_code ec;
  m_canonical_root = fs::canonical(root, ec);
  if (ec) {
    m_canonical_root = fs::absolute(root).lexically_normal();
  }
}

void Walker::walk(const fs::path& relative) {
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
  std::sort(children.begin(), children.end(),
            [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
  for (const auto& child : children) {
    visit(relative / child.path().filename(), child);
  }
}

bool Walker::revisit(const std::vector<std::string>& changed, Entries wanted) {
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

bool Walker::walked_into(const fs::path& relative) const {
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

void Walker::visit(const fs::path& relative, const fs::directory_entry& child) {
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

void Walker::finish() {
  if (m_cache != nullptr) {
    m_cache->items = std::move(m_kept);
    m_cache->unkept.assign(m_unkept.begin(), m_unkept.end());
    m_cache->warned = std::move(m_warned);
    m_cache->complete = true;
    m_cache->reused = m_reused;
  }
}

void Walker::unkept(const fs::path& relative) {
  if (m_cache != nullptr) {
    m_unkept.insert(relative.generic_string());
  }
}

std::int64_t Walker::now_ns() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

std::string Walker::display(const fs::path& relative) const {
  return printable_path((m_root / relative).string());
}

void Walker::diagnose(const fs::path& relative, int line, std::string reason) {
  unkept(relative);
  m_out.diagnostics.push_back(
      Diagnostic{display(relative), line, std::move(reason), Severity::error});
}

} // namespace detail

namespace {

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
  detail::Walker walker(root, layout, limits, snapshot, cache);
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
  return FileIdentity{static_cast<std::uint64_t>(info.st_dev),
                      static_cast<std::uint64_t>(info.st_ino),
                      static_cast<std::int64_t>(info.st_size), platform::modified_ns(info),
                      platform::changed_ns(info)};
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
