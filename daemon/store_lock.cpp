// StoreLock over flock(2): advisory, per open file, released by the kernel.
#include "daemon/store_lock.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

namespace engram::daemon {

namespace {

// The name of the lock file inside the state folder.
constexpr const char* k_lock_name = "daemon.lock";

// The pid written in an open lock file; 0 when it holds none.
pid_t read_pid(int fd) {
  char buffer[32] = {};
  const ssize_t got = ::pread(fd, buffer, sizeof buffer - 1, 0);
  if (got <= 0) {
    return 0;
  }
  return static_cast<pid_t>(std::strtol(buffer, nullptr, 10));
}

} // namespace

Expected<StoreLock, std::string> StoreLock::take(const std::filesystem::path& state_dir) {
  std::error_code error;
  std::filesystem::create_directories(state_dir, error);
  const std::filesystem::path file = state_dir / k_lock_name;
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return unexpected(fmt::format("cannot open {}: {}", file.string(), std::strerror(errno)));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int code = errno;
    const pid_t pid = read_pid(fd);
    ::close(fd);
    if (code == EWOULDBLOCK) {
      return unexpected(pid > 0 ? fmt::format("already kept by another engram daemon (pid {})", pid)
                                : std::string("already kept by another engram daemon"));
    }
    return unexpected(fmt::format("cannot lock {}: {}", file.string(), std::strerror(code)));
  }
  const std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(fd, 0) != 0 ||
      ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    // The lock is what matters; the pid is only for the message of a second daemon.
  }
  return StoreLock(fd);
}

pid_t StoreLock::holder(const std::filesystem::path& state_dir) {
  const std::filesystem::path file = state_dir / k_lock_name;
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return 0;
  }
  pid_t pid = 0;
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    pid = read_pid(fd);
    if (pid == 0) {
      pid = -1; // held, by a process that has not written its pid yet
    }
  }
  ::close(fd);
  return pid;
}

StoreLock::StoreLock(StoreLock&& other) noexcept : m_fd(other.m_fd) {
  other.m_fd = -1;
}

StoreLock& StoreLock::operator=(StoreLock&& other) noexcept {
  if (this != &other) {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
    m_fd = other.m_fd;
    other.m_fd = -1;
  }
  return *this;
}

StoreLock::~StoreLock() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

} // namespace engram::daemon
