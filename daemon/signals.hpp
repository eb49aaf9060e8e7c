// Signals as events: SIGTERM, SIGINT and SIGHUP become readable bytes of one
// descriptor on the loop, so a signal is handled between two events and never
// interrupts a consolidation half-way. Made before any thread starts. Two
// backends, chosen in cmake/platform.cmake: signals_signalfd.cpp (Linux: the
// signals blocked in every thread and read from a signalfd) and
// signals_pipe.cpp (POSIX: a handler writes the signal's number down a pipe).
#pragma once

#include <csignal>
#include <memory>
#include <optional>

namespace engram::daemon {

// The daemon's signals, as a descriptor.
class Signals {
public:
  // Takes SIGTERM, SIGINT and SIGHUP over, ignores SIGPIPE, and opens the
  // descriptor; throws engram::Error.
  Signals();
  // Closes the descriptor and gives the signals back as they were.
  ~Signals();
  Signals(const Signals&) = delete;
  Signals& operator=(const Signals&) = delete;

  // The descriptor that becomes readable when a signal is pending.
  int fd() const { return m_fd; }

  // The next pending signal's number, or nullopt when none is pending.
  std::optional<int> next();

private:
  struct Previous; // how the signals were handled before (see the two .cpp files)

  int m_fd = -1;
  std::unique_ptr<Previous> m_previous;
};

} // namespace engram::daemon
