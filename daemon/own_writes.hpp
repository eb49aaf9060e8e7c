// OwnWrites: what engram itself last wrote to a store, so the watcher's events
// for those writes do not start another consolidation. A path is engram's
// while the file still has the bytes engram wrote (or, for a removal, is still
// gone); the first event that finds anything else makes it the agent's again.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace engram::daemon {

// The content hash engram wrote per store-relative path; nullopt for a removal.
using WrittenFiles = std::map<std::string, std::optional<std::string>>;

// engram's own recent writes to one store.
class OwnWrites {
public:
  // Remembers what a consolidation wrote and removed.
  void remember(const WrittenFiles& written);

  // True when the change event for `relative` is explained by engram's own
  // write: the file under `root` still has the remembered hash (or is still
  // absent). Forgets the path as soon as it is not, so later edits count.
  bool explains(const std::filesystem::path& root, const std::string& relative);

  // How many paths are remembered.
  std::size_t size() const { return m_written.size(); }

private:
  WrittenFiles m_written;
};

// The content hash of the file at `path` as store::content_hash computes it;
// nullopt when it does not exist or is not a regular file.
std::optional<std::string> file_hash(const std::filesystem::path& path);

} // namespace engram::daemon
