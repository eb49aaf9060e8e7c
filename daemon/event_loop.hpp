// EventLoop: the daemon's one thread of I/O. It waits on file descriptors
// (watchers, signals, sockets), on one deadline, and on wake-ups from other
// threads. It is driven one step at a time, so a test can run it
// deterministically; it never reads a clock itself. Two backends, chosen in
// cmake/platform.cmake: event_loop_epoll.cpp (Linux's epoll, timerfd and
// eventfd) and event_loop_poll.cpp (POSIX poll and a pipe, everywhere).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace engram::daemon {

// The clock every deadline of the daemon is measured with.
using Clock = std::chrono::steady_clock;

// The readiness bits a handler is called with, the same on every backend.
inline constexpr std::uint32_t k_readable = 1U << 0; // data to read, or a connection to accept
inline constexpr std::uint32_t k_writable = 1U << 1; // room to write
inline constexpr std::uint32_t k_hangup = 1U << 2;   // the peer hung up, or an error

// A loop over file descriptors with one timer and a cross-thread wake-up.
class EventLoop {
public:
  // Called with the readiness bits (k_readable, k_writable, k_hangup) of its descriptor.
  using Handler = std::function<void(std::uint32_t events)>;

  // Creates what the backend waits with; throws engram::Error.
  EventLoop();
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Calls `handler` whenever `fd` is readable (and writable, when `write` is asked for).
  void add(int fd, Handler handler, bool write = false);

  // Changes whether `fd` is also waited on for writability.
  void want_write(int fd, bool write);

  // Stops waiting on `fd` (the caller still owns and closes it).
  void remove(int fd);

  // Wakes the loop at `deadline` (measured from `now`), or never when nullopt.
  // The timer is disarmed when nothing is due, so an idle daemon does not wake up.
  void arm(std::optional<Clock::time_point> deadline, Clock::time_point now);

  // Makes the current or next step() return; safe to call from any thread.
  void wake();

  // Waits at most `max_wait` (nullopt: until something happens) and runs the
  // handlers of the descriptors that became ready. Returns how many were
  // ready, counting the timer and wake-ups.
  std::size_t step(std::optional<std::chrono::milliseconds> max_wait);

  // True when the timer armed by arm() has fired since the last step().
  bool timer_fired() const { return m_timer_fired; }

private:
  struct Backend; // what the backend waits with (see the two .cpp files)

  std::unique_ptr<Backend> m_backend;
  bool m_timer_fired = false;               // set by the last step()
  std::map<int, Handler> m_handlers;        // by descriptor
  std::optional<Clock::time_point> m_armed; // what the timer is set to, to skip redundant calls
};

} // namespace engram::daemon
