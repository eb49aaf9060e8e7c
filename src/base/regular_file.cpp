// RegularFile: open with O_NOFOLLOW, check the descriptor, read with a cap.
#include "base/regular_file.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace engram {

std::optional<RegularFile> RegularFile::open(const std::filesystem::path& path,
                                             Failure& failure) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    failure = errno == ELOOP ? Failure::is_link : Failure::cannot_open;
    return std::nullopt;
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    failure = Failure::not_regular;
    return std::nullopt;
  }
  return RegularFile(fd, info);
}

RegularFile::RegularFile(RegularFile&& other) noexcept : m_fd(other.m_fd), m_info(other.m_info) {
  other.m_fd = -1;
}

RegularFile::~RegularFile() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

std::optional<std::string> RegularFile::read(std::uintmax_t limit) {
  std::string content;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(m_fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      return std::nullopt;
    }
    if (got == 0) {
      break;
    }
    content.append(buffer, static_cast<std::size_t>(got));
    if (content.size() > limit) {
      break;
    }
  }
  return content;
}

} // namespace engram
