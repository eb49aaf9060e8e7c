// Apply: the only code that changes memory files on disk.
#include "engine/apply.hpp"

#include "base/error.hpp"
#include "base/fault.hpp"
#include "store/scan.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace engram::engine {
namespace fs = std::filesystem;

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

namespace {

// Makes a rename or unlink in `folder` durable.
void fsync_folder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

// write_atomically with a fault point between the fsync and the rename.
void write_through_temporary(const fs::path& path, std::string_view bytes, std::string_view fault);

} // namespace

void write_atomically(const fs::path& path, std::string_view bytes) {
  write_through_temporary(path, bytes, {});
}

bool is_temporary_name(std::string_view filename) {
  // `.` + name + `.` + six characters from mkstemps + `.tmp`.
  constexpr std::size_t k_suffix = 1 + 6 + 4;
  if (filename.size() < 1 + 1 + k_suffix || filename.front() != '.' ||
      !filename.ends_with(".tmp") || filename[filename.size() - k_suffix] != '.') {
    return false;
  }
  const auto random = filename.substr(filename.size() - k_suffix + 1, 6);
  return std::all_of(random.begin(), random.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

namespace {

void write_through_temporary(const fs::path& path, std::string_view bytes, std::string_view fault) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  // The temporary ends in .tmp so watchers (ours included) ignore it.
  std::string temp =
      (path.parent_path() / ("." + path.filename().string() + ".XXXXXX.tmp")).string();
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
  if (!fault.empty()) {
    fault_point(fault);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    throw Error("{}: cannot rename into place: {}", path.string(), reason);
  }
  fsync_folder(path.parent_path());
}

} // namespace

ApplyResult apply(const Plan& plan, const fs::path& root) {
  return apply(plan.changes, root);
}

ApplyResult apply(const std::vector<FileChange>& changes, const fs::path& root) {
  ApplyResult result;
  std::vector<const FileChange*> removals;
  for (const auto& change : changes) {
    const auto path = root / change.path;
    if (disk_hash(path) != change.base_hash) {
      result.deferred.push_back(change.path);
      continue; // the agent wrote it after we read it: its bytes win
    }
    if (!change.new_bytes) {
      removals.push_back(&change);
      continue;
    }
    const std::size_t n = result.written.size() + 1;
    write_through_temporary(path, *change.new_bytes, fmt::format("before-rename-{}", n));
    result.written.push_back(change.path);
    fault_point(fmt::format("after-write-{}", n));
  }
  if (!result.deferred.empty()) {
    // A removed file's claims may have been bound for a deferred file.
    for (const auto* change : removals) {
      result.deferred.push_back(change->path);
    }
    return result;
  }
  fault_point("before-remove");
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
    fault_point(fmt::format("after-remove-{}", result.removed.size()));
  }
  return result;
}

} // namespace engram::engine
