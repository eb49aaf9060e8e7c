// Signals as events: SIGTERM, SIGINT and SIGHUP are blocked and read from a
// signalfd on the loop, so a signal is handled between two events and never
// interrupts a consolidation half-way. Made before any thread starts, so every
// thread inherits the blocked mask.
#pragma once

#include <csignal>
#include <optional>

namespace engram::daemon {

// The daemon's signalfd.
class Signals {
public:
  // Blocks SIGTERM, SIGINT and SIGHUP for this thread (and the threads it
  // starts later), ignores SIGPIPE, and opens the signalfd; throws engram::Error.
  Signals();
  // Closes the signalfd and restores the previous mask.
  ~Signals();
  Signals(const Signals&) = delete;
  Signals& operator=(const Signals&) = delete;

  // The descriptor that becomes readable when a signal is pending.
  int fd() const { return m_fd; }

  // The next pending signal's number, or nullopt when none is pending.
  std::optional<int> next();

private:
  int m_fd = -1;
  sigset_t m_previous{}; // the mask in force before, restored on destruction
};

} // namespace engram::daemon
