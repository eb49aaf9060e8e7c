// OwnWrites: comparing what is on disk now with what engram wrote.
#include "daemon/own_writes.hpp"

#include "store/scan.hpp"

#include <fstream>
#include <sstream>

namespace engram::daemon {

std::optional<std::string> file_hash(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, error))) {
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return store::content_hash(bytes.str());
}

void OwnWrites::remember(const WrittenFiles& written) {
  for (const auto& [path, hash] : written) {
    m_written[path] = hash;
  }
}

bool OwnWrites::explains(const std::filesystem::path& root, const std::string& relative) {
  const auto found = m_written.find(relative);
  if (found == m_written.end()) {
    return false;
  }
  if (file_hash(root / relative) == found->second) {
    return true;
  }
  m_written.erase(found);
  return false;
}

} // namespace engram::daemon
