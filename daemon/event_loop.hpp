// EventLoop: the daemon's one thread of I/O. It waits on file descriptors
// (watchers, signals, sockets) with epoll, on one deadline with a timerfd, and
// on wake-ups from other threads with an eventfd. It is driven one step at a
// time, so a test can run it deterministically; it never reads a clock itself.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>

namespace engram::daemon {

// The clock every deadline of the daemon is measured with.
using Clock = std::chrono::steady_clock;

// An epoll loop with one timer and a cross-thread wake-up.
class EventLoop {
public:
  // Called with the readiness bits (EPOLLIN, EPOLLOUT, EPOLLHUP, ...) of its descriptor.
  using Handler = std::function<void(std::uint32_t events)>;

  // Creates the epoll instance, the timerfd and the eventfd; throws engram::Error.
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
  // Registers or re-registers `fd` with epoll.
  void control(int op, int fd, bool write);

  int m_epoll = -1;                         // the epoll instance
  int m_timer = -1;                         // the one deadline, CLOCK_MONOTONIC
  int m_wake = -1;                          // eventfd other threads write to
  bool m_timer_fired = false;               // set by the last step()
  std::map<int, Handler> m_handlers;        // by descriptor
  std::optional<Clock::time_point> m_armed; // what the timer is set to, to skip redundant syscalls
};

} // namespace engram::daemon
