// RegularFile: open with O_NOFOLLOW, check the descriptor, read with a cap.
#include "base/regular_file.hpp"

#include <algorithm>
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

bool read_to_end(int fd, std::uintmax_t expected, std::uintmax_t limit, std::string& out) {
  const std::size_t start = out.size();
  const auto wanted = [&] { return out.size() - start; };
  // Room for the expected bytes and one more (no more than the limit and one more).
  std::uintmax_t room = std::min(expected, limit) + 1;
  constexpr std::uintmax_t k_step = 65536; // how much more room a file that grew is given
  for (;;) {
    const std::size_t at = out.size();
    out.resize(start + static_cast<std::size_t>(room));
    const std::size_t asked = out.size() - at;
    const ssize_t got = ::read(fd, out.data() + at, asked);
    if (got < 0) {
      out.resize(at);
      if (errno == EINTR) {
        continue;
      }
      return false;
    }
    out.resize(at + static_cast<std::size_t>(got));
    if (got == 0 || wanted() > limit ||
        (static_cast<std::size_t>(got) < asked && wanted() >= expected)) {
      return true;
    }
    if (wanted() == room) { // full: the file grew; more room, up to one byte past the limit
      room = std::min(room + std::max(room, k_step), limit + 1);
    }
  }
}

std::optional<std::string> RegularFile::read(std::uintmax_t limit) {
  std::string content;
  if (!read_to_end(m_fd, static_cast<std::uintmax_t>(std::max<off_t>(m_info.st_size, 0)), limit,
                   content)) {
    return std::nullopt;
  }
  return content;
}

} // namespace engram
