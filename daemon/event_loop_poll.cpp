// EventLoop over POSIX poll(2) and a pipe (see event_loop.hpp): what every
// system has. The deadline is kept as a time of the steady clock and turned
// into poll's timeout at each step; a wake-up is a byte down the pipe.
#include "base/error.hpp"
#include "base/platform.hpp"
#include "daemon/event_loop.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <vector>

namespace engram::daemon {

namespace {

// Throws engram::Error naming the failed call and errno.
[[noreturn]] void fail(const char* what) {
  throw Error("{}: {}", what, std::strerror(errno));
}

// poll's bits as the loop's.
std::uint32_t readiness(short events) {
  return ((events & POLLIN) != 0 ? k_readable : 0U) | ((events & POLLOUT) != 0 ? k_writable : 0U) |
         ((events & (POLLHUP | POLLERR | POLLNVAL)) != 0 ? k_hangup : 0U);
}

} // namespace

struct EventLoop::Backend {
  int wake_read = -1;                     // the pipe's end the loop waits on
  int wake_write = -1;                    // the end other threads write a byte to
  std::map<int, bool> want_write;         // by descriptor
  std::optional<Clock::time_point> fires; // the deadline on the real steady clock

  ~Backend() {
    for (int fd : {wake_read, wake_write}) {
      if (fd >= 0) {
        ::close(fd);
      }
    }
  }

  // Empties the wake-up pipe.
  void drain() const {
    char bytes[64];
    while (::read(wake_read, bytes, sizeof bytes) > 0) {
    }
  }
};

EventLoop::EventLoop() : m_backend(std::make_unique<Backend>()) {
  int ends[2];
  if (!platform::cloexec_pipe(ends)) {
    fail("pipe");
  }
  m_backend->wake_read = ends[0];
  m_backend->wake_write = ends[1];
  for (int fd : ends) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
      fail("fcntl");
    }
  }
}

EventLoop::~EventLoop() = default;

void EventLoop::add(int fd, Handler handler, bool write) {
  m_backend->want_write[fd] = write;
  m_handlers[fd] = std::move(handler);
}

void EventLoop::want_write(int fd, bool write) {
  m_backend->want_write[fd] = write;
}

void EventLoop::remove(int fd) {
  m_handlers.erase(fd);
  m_backend->want_write.erase(fd);
}

void EventLoop::arm(std::optional<Clock::time_point> deadline, Clock::time_point now) {
  if (deadline == m_armed) {
    return;
  }
  m_armed = deadline;
  // Relative to the caller's clock, which a test may have replaced.
  m_backend->fires.reset();
  if (deadline) {
    m_backend->fires = Clock::now() + std::max(Clock::duration::zero(), *deadline - now);
  }
}

void EventLoop::wake() {
  const char byte = 1;
  while (::write(m_backend->wake_write, &byte, 1) < 0 && errno == EINTR) {
  }
}

std::size_t EventLoop::step(std::optional<std::chrono::milliseconds> max_wait) {
  std::vector<pollfd> watched{{m_backend->wake_read, POLLIN, 0}};
  for (const auto& [fd, write] : m_backend->want_write) {
    watched.push_back({fd, static_cast<short>(POLLIN | (write ? POLLOUT : 0)), 0});
  }
  // The nearer of the caller's limit and the deadline, rounded up to whole
  // milliseconds so a step never returns just before the deadline.
  std::optional<Clock::duration> wait = max_wait;
  if (m_backend->fires) {
    const auto left = std::max(Clock::duration::zero(), *m_backend->fires - Clock::now());
    wait = wait ? std::min(*wait, left) : left;
  }
  const int timeout =
      wait ? static_cast<int>(std::min<std::int64_t>(
                 std::chrono::ceil<std::chrono::milliseconds>(*wait).count(), INT_MAX))
           : -1;
  const int ready = ::poll(watched.data(), watched.size(), timeout);
  m_timer_fired = false;
  if (ready < 0) {
    if (errno == EINTR) {
      return 0;
    }
    fail("poll");
  }
  std::size_t count = static_cast<std::size_t>(ready);
  if (m_backend->fires && Clock::now() >= *m_backend->fires) {
    m_backend->fires.reset();
    m_armed.reset();
    m_timer_fired = true;
    ++count;
  }
  if (watched[0].revents != 0) {
    m_backend->drain();
  }
  // Handlers may remove descriptors (a closed connection), so look each up
  // again rather than holding on to the handler.
  for (std::size_t i = 1; i < watched.size(); ++i) {
    if (watched[i].revents == 0) {
      continue;
    }
    const auto found = m_handlers.find(watched[i].fd);
    if (found != m_handlers.end()) {
      Handler handler = found->second; // a copy: the handler may remove itself
      handler(readiness(watched[i].revents));
    }
  }
  return count;
}

} // namespace engram::daemon
