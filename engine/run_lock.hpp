// RunLock: one engram run that writes at a time per store. Two runs racing each other
// (a daemon's and a command's, or two commands) would each read, plan and
// write over the other; the second waits for the first instead. The lock is an
// flock on `<store>/.engram/run.lock`, which the kernel releases when the
// holder dies, so a crashed run never leaves the store locked.
#pragma once

#include "store/layout.hpp"

#include <chrono>
#include <filesystem>

namespace engram::engine {

// An exclusive lock on one store for one run, held from construction to destruction.
class RunLock {
public:
  // Takes the lock, waiting up to `wait` while another run holds it. Throws
  // engram::Error when the wait runs out or the lock file cannot be opened.
  RunLock(const std::filesystem::path& root, const store::Layout& layout,
          std::chrono::milliseconds wait);

  RunLock(RunLock&& other) noexcept;
  RunLock& operator=(RunLock&& other) noexcept;
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

  // Releases the lock.
  ~RunLock();

private:
  int m_fd = -1; // the open lock file; closing it releases the flock
};

} // namespace engram::engine
