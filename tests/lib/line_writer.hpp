// Lines as concurrent-writer tests write them: unique markers no rule reads
// as a number, appended the way `echo line >> file` does. Header-only, like
// the other test helpers.
#pragma once

#include <fcntl.h>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace engram::test {

// `n` as three lowercase letters ("aaa", "aab", ...): a marker no rule reads
// as a number, so no two lines look like one claim with a changed value; of
// one width, so no marker is a part of another.
inline std::string letters(std::size_t n) {
  std::string out(3, 'a');
  for (std::size_t i = 3; i-- > 0; n /= 26) {
    out[i] = static_cast<char>('a' + n % 26);
  }
  return out;
}

// Appends `line` to `path` with one write(2) on an O_APPEND descriptor, as
// `echo line >> file` does; false when the line was not written whole. Safe
// in writer threads: it counts on the caller, never asserts.
inline bool append_line(const std::filesystem::path& path, const std::string& line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) {
    return false;
  }
  const ssize_t wrote = ::write(fd, line.data(), line.size());
  ::close(fd);
  return wrote == static_cast<ssize_t>(line.size());
}

} // namespace engram::test
