// Retired files: held open across the rename that replaces them, closed on a
// helper thread (see retired_files.hpp).
#include "git/retired_files.hpp"

#include <fcntl.h>
#include <unistd.h>

namespace engram::git::detail {

RetiredFiles::~RetiredFiles() {
  for (const int descriptor : m_held) {
    ::close(descriptor);
  }
  // m_closer joins.
}

void RetiredFiles::hold(const std::filesystem::path& path) {
  // O_NOFOLLOW: a link's target is not what the rename replaces.
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (descriptor >= 0) {
    m_held.push_back(descriptor);
  }
}

void RetiredFiles::close_later() {
  if (m_held.empty()) {
    return;
  }
  if (m_closer.joinable()) {
    m_closer.join(); // the last commit's, long done by now
  }
  m_closer = std::jthread([held = std::move(m_held)] {
    for (const int descriptor : held) {
      ::close(descriptor);
    }
  });
  m_held.clear();
}

} // namespace engram::git::detail
