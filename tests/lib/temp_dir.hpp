// Test helpers for real folders: a temporary directory that removes itself,
// and whole-file reads and writes. Header-only so unit and integration tests
// can both use it.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unistd.h>

namespace engram::test {

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it on destruction.
class TempDir {
public:
  // Creates the directory; throws when it cannot.
  TempDir() : TempDir(default_parent()) {}

  // Creates the directory inside `parent` (created too); throws when it cannot.
  explicit TempDir(const std::filesystem::path& parent) {
    std::filesystem::create_directories(parent);
    std::string pattern = (parent / "engram-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot create a temporary directory");
    }
    // Canonical, so paths compare equal to what the binary prints (/tmp may be a symlink).
    m_path = std::filesystem::canonical(pattern);
  }

  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Removes the directory and its contents, ignoring errors.
  ~TempDir() {
    std::error_code error;
    std::filesystem::remove_all(m_path, error);
  }

  // The directory's absolute path.
  const std::filesystem::path& path() const { return m_path; }

  // A path inside the directory.
  std::filesystem::path operator/(const std::filesystem::path& relative) const {
    return m_path / relative;
  }

private:
  // $TMPDIR, else /tmp.
  static std::filesystem::path default_parent() {
    const char* base = std::getenv("TMPDIR");
    return base != nullptr && *base != '\0' ? base : "/tmp";
  }

  std::filesystem::path m_path;
};

// Writes `bytes` to `path` exactly (binary), creating parent folders.
inline void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    throw std::runtime_error("cannot write " + path.string());
  }
}

// The exact bytes of a file; throws when it cannot be read.
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error("cannot read " + path.string());
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What a file looked like: its bytes (or link target) and modification time.
struct FileState {
  std::string content;
  std::filesystem::file_time_type mtime;
  bool operator==(const FileState&) const = default;
};

// Every file, link and folder under `root` by relative path, without following
// links, so a later call shows whether anything was created, changed or removed.
inline std::map<std::string, FileState> snapshot_tree(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::map<std::string, FileState> tree;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::path& path = it->path();
    FileState state;
    if (it->is_symlink()) {
      state.content = "-> " + fs::read_symlink(path).string();
    } else if (it->is_regular_file()) {
      state.content = read_file(path);
      state.mtime = fs::last_write_time(path);
    } else if (it->is_directory()) {
      state.content = "<dir>";
      state.mtime = fs::last_write_time(path);
    }
    tree[fs::relative(path, root).generic_string()] = std::move(state);
  }
  return tree;
}

} // namespace engram::test
