// StoreLock: one daemon per store. An exclusive flock on
// `<store>/<state>/daemon.lock`, held for the daemon's life, with the holder's
// pid written in it so a second daemon can say which process it defers to.
// The kernel drops the lock when the process dies, so it is never stale.
#pragma once

#include "base/expected.hpp"

#include <filesystem>
#include <string>
#include <sys/types.h>

namespace engram::daemon {

// The held lock of one store.
class StoreLock {
public:
  // Takes the lock without waiting. Fails with a message naming the pid of
  // the daemon that holds it, or saying why the file cannot be locked.
  [[nodiscard]] static Expected<StoreLock, std::string>
  take(const std::filesystem::path& state_dir);

  // The pid written in the lock file of `state_dir` when some process holds
  // the lock now; 0 when nobody does, -1 when it is held without a pid yet.
  static pid_t holder(const std::filesystem::path& state_dir);

  StoreLock(StoreLock&& other) noexcept;
  StoreLock& operator=(StoreLock&& other) noexcept;
  StoreLock(const StoreLock&) = delete;
  StoreLock& operator=(const StoreLock&) = delete;
  // Releases the lock (the file stays; its content is only a hint).
  ~StoreLock();

private:
  explicit StoreLock(int fd) : m_fd(fd) {}

  int m_fd = -1;
};

} // namespace engram::daemon
