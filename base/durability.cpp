// Durability: one flush of the file system holding a folder (see platform.hpp).
#include "base/durability.hpp"

#include "base/platform.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

namespace engram {

std::optional<std::string> sync_file_system(const std::filesystem::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return fmt::format("cannot open {} to flush it: {}", folder.string(), std::strerror(errno));
  }
  const int saved = platform::flush_file_system(fd);
  ::close(fd);
  if (saved != 0) {
    return fmt::format("cannot flush the file system of {}: {}", folder.string(),
                       std::strerror(saved));
  }
  return std::nullopt;
}

} // namespace engram
