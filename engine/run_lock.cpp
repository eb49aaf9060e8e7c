// RunLock over flock(2): advisory, per open file, released on close or death.
#include "engine/run_lock.hpp"

#include "base/error.hpp"
#include "base/fault.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/file.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace engram::engine {

RunLock::RunLock(const std::filesystem::path& root, const store::Layout& layout,
                 std::chrono::milliseconds wait) {
  const std::filesystem::path folder = root / layout.state;
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  const std::filesystem::path path = folder / "run.lock";
  m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (m_fd < 0) {
    throw Error("{}: cannot open the store lock: {}", path.string(), std::strerror(errno));
  }
  std::chrono::milliseconds waited{0};
  std::chrono::milliseconds pause{10};
  bool told = false;
  while (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) {
      continue;
    }
    if (errno != EWOULDBLOCK || waited >= wait) {
      const std::string reason =
          errno == EWOULDBLOCK ? "another engram run is working on it" : std::strerror(errno);
      ::close(m_fd);
      m_fd = -1;
      throw Error("{}: cannot lock the store ({}); waited {} ms", root.string(), reason,
                  waited.count());
    }
    if (!told) {
      spdlog::info("{}: waiting for another engram run to finish", root.string());
      told = true;
      fault_point("run-lock-busy");
    }
    const auto step = std::min(pause, wait - waited);
    std::this_thread::sleep_for(step);
    waited += step;
    pause = std::min(pause * 2, std::chrono::milliseconds(500));
  }
}

RunLock::RunLock(RunLock&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}

RunLock& RunLock::operator=(RunLock&& other) noexcept {
  if (this != &other) {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
    m_fd = std::exchange(other.m_fd, -1);
  }
  return *this;
}

RunLock::~RunLock() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

} // namespace engram::engine
