// Scan: walking a store folder. Every file is checked before it is parsed, and
// every failure becomes a diagnostic for that one file; the walk goes on.
#include "store/scan.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fmt/std.h>
#include <fstream>
#include <git2.h>
#include <sstream>

namespace engram::store {
namespace fs = std::filesystem;
namespace {

// Walks the store, collecting what it finds.
class Walker {
public:
  Walker(const fs::path& root, const Layout& layout, const ScanLimits& limits, Snapshot& out)
      : m_root(root), m_layout(layout), m_limits(limits), m_out(out) {
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
    std::sort(children.begin(), children.end(),
              [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
    for (const auto& child : children) {
      visit(relative / child.path().filename(), child);
    }
  }

private:
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
    const auto layer = m_layout.classify(relative);
    if (!layer) {
      return; // not a memory file (README.md at the root, .gitkeep, .index.json, ...)
    }
    if (is_link) {
      const auto target = fs::canonical(m_root / relative, ec);
      if (ec) {
        diagnose(relative, 1, "broken symlink; not read");
        return;
      }
      const auto [root_end, target_it] =
          std::mismatch(m_canonical_root.begin(), m_canonical_root.end(), target.begin(), target.end());
      if (root_end != m_canonical_root.end()) {
        diagnose(relative, 1, fmt::format("symlink leaves the store (to {}); not read", target));
        return;
      }
      if (fs::is_directory(target, ec)) {
        return;
      }
    } else if (!child.is_regular_file(ec)) {
      diagnose(relative, 1, "not a regular file; not read");
      return;
    }
    read(relative, *layer);
  }

  void read(const fs::path& relative, Layer layer) {
    std::error_code ec;
    const auto size = fs::file_size(m_root / relative, ec);
    if (ec) {
      diagnose(relative, 1, fmt::format("cannot read: {}", ec.message()));
      return;
    }
    if (size > m_limits.max_file_bytes) {
      diagnose(relative, 1,
               fmt::format("file is {} bytes, over the limit of {} (scan.max_file_bytes); not read",
                           size, m_limits.max_file_bytes));
      return;
    }
    std::ifstream in(m_root / relative, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in && !in.eof()) {
      diagnose(relative, 1, fmt::format("cannot read: {}", std::strerror(errno)));
      return;
    }
    const std::string content = std::move(bytes).str();
    auto parsed = MemoryFile::parse(display(relative), content);
    if (!parsed) {
      m_out.diagnostics.push_back(std::move(parsed.error()));
      return;
    }
    for (const auto& warning : parsed->field_diagnostics()) {
      m_out.diagnostics.push_back(warning);
    }
    m_out.entries.push_back(
        Entry{relative, layer, std::move(parsed.value()), content.size(), content_hash(content)});
  }

  std::string display(const fs::path& relative) const { return (m_root / relative).string(); }

  void diagnose(const fs::path& relative, int line, std::string reason) {
    m_out.diagnostics.push_back(Diagnostic{display(relative), line, std::move(reason), Severity::error});
  }

  const fs::path& m_root;
  fs::path m_canonical_root;
  const Layout& m_layout;
  const ScanLimits& m_limits;
  Snapshot& m_out;
};

} // namespace

Snapshot scan(const fs::path& root, const Layout& layout, const ScanLimits& limits) {
  Snapshot snapshot;
  snapshot.root = root;
  Walker(root, layout, limits, snapshot).walk({});
  std::sort(snapshot.entries.begin(), snapshot.entries.end(),
            [](const Entry& a, const Entry& b) { return a.relative < b.relative; });
  std::stable_sort(snapshot.diagnostics.begin(), snapshot.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return std::tie(a.path, a.line) < std::tie(b.path, b.line);
                   });
  return snapshot;
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
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const auto& d) {
    return d.severity == Severity::error;
  }));
}

std::string content_hash(std::string_view bytes) {
  // The git blob id: the same value `git hash-object` prints, so a plan's
  // hashes can be checked against the repository as well as the disk.
  static const int k_init = git_libgit2_init();
  (void)k_init;
  git_oid oid;
  if (git_odb_hash(&oid, bytes.data(), bytes.size(), GIT_OBJECT_BLOB) != 0) {
    throw std::runtime_error("git_odb_hash failed");
  }
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(hex, sizeof hex, &oid);
  return hex;
}

} // namespace engram::store
