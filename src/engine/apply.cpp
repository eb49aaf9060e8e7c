// Apply: the only code that changes memory files on disk.
#include "engine/apply.hpp"

#include "base/error.hpp"
#include "store/scan.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace engram::engine {
namespace fs = std::filesystem;
namespace {

// A file's current hash on disk; nullopt when it does not exist.
std::optional<std::string> disk_hash(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) {
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return store::content_hash(bytes.str());
}

void fsync_folder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

} // namespace

void write_atomically(const fs::path& path, std::string_view bytes) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  // The temporary ends in .tmp so watchers (ours included) ignore it.
  std::string temp = (path.parent_path() / ("." + path.filename().string() + ".XXXXXX.tmp")).string();
  const int fd = ::mkstemps(temp.data(), 4);
  if (fd < 0) {
    throw Error("{}: cannot create a temporary file: {}", path.string(), std::strerror(errno));
  }
  std::size_t written = 0;
  while (written < bytes.size()) {
    const auto n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      const std::string reason = std::strerror(errno);
      ::close(fd);
      ::unlink(temp.c_str());
      throw Error("{}: cannot write: {}", path.string(), reason);
    }
    written += static_cast<std::size_t>(n);
  }
  ::fchmod(fd, 0644);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    throw Error("{}: cannot flush: {}", path.string(), reason);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    throw Error("{}: cannot rename into place: {}", path.string(), reason);
  }
  fsync_folder(path.parent_path());
}

ApplyResult apply(const Plan& plan, const fs::path& root) {
  ApplyResult result;
  std::vector<const FileChange*> removals;
  for (const auto& change : plan.changes) {
    const auto path = root / change.path;
    if (disk_hash(path) != change.base_hash) {
      result.deferred.push_back(change.path);
      continue; // the agent wrote it after we read it: its bytes win
    }
    if (!change.new_bytes) {
      removals.push_back(&change);
      continue;
    }
    write_atomically(path, *change.new_bytes);
    result.written.push_back(change.path);
  }
  if (!result.deferred.empty()) {
    // A removed file's claims may have been bound for a deferred file.
    for (const auto* change : removals) {
      result.deferred.push_back(change->path);
    }
    return result;
  }
  for (const auto* change : removals) {
    const auto path = root / change->path;
    if (disk_hash(path) != change->base_hash) {
      result.deferred.push_back(change->path);
      continue;
    }
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      throw Error("{}: cannot remove: {}", path.string(), std::strerror(errno));
    }
    fsync_folder(path.parent_path());
    result.removed.push_back(change->path);
  }
  return result;
}

} // namespace engram::engine
