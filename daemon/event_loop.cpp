// EventLoop over Linux's epoll, timerfd and eventfd.
#include "daemon/event_loop.hpp"

#include "base/error.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <vector>

namespace engram::daemon {

namespace {

// The most events one step handles; more stay ready for the next step.
constexpr int k_max_events = 64;

// Throws engram::Error naming the failed call and errno.
[[noreturn]] void fail(const char* what) {
  throw Error("{}: {}", what, std::strerror(errno));
}

// Reads and discards the counter of a timerfd or eventfd.
void drain(int fd) {
  std::uint64_t count = 0;
  while (::read(fd, &count, sizeof count) < 0 && errno == EINTR) {
  }
}

} // namespace

EventLoop::EventLoop() {
  m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
  if (m_epoll < 0) {
    fail("epoll_create1");
  }
  m_timer = ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (m_timer < 0) {
    fail("timerfd_create");
  }
  m_wake = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (m_wake < 0) {
    fail("eventfd");
  }
  control(EPOLL_CTL_ADD, m_timer, false);
  control(EPOLL_CTL_ADD, m_wake, false);
}

EventLoop::~EventLoop() {
  for (int fd : {m_wake, m_timer, m_epoll}) {
    if (fd >= 0) {
      ::close(fd);
    }
  }
}

void EventLoop::control(int op, int fd, bool write) {
  epoll_event event{};
  event.events = EPOLLIN | (write ? EPOLLOUT : 0U);
  event.data.fd = fd;
  if (::epoll_ctl(m_epoll, op, fd, &event) != 0) {
    fail("epoll_ctl");
  }
}

void EventLoop::add(int fd, Handler handler, bool write) {
  control(EPOLL_CTL_ADD, fd, write);
  m_handlers[fd] = std::move(handler);
}

void EventLoop::want_write(int fd, bool write) {
  control(EPOLL_CTL_MOD, fd, write);
}

void EventLoop::remove(int fd) {
  if (m_handlers.erase(fd) > 0) {
    ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
  }
}

void EventLoop::arm(std::optional<Clock::time_point> deadline, Clock::time_point now) {
  if (deadline == m_armed) {
    return;
  }
  m_armed = deadline;
  itimerspec spec{};
  if (deadline) {
    // Relative to the caller's clock, which a test may have replaced; a
    // deadline already passed still fires (a zero value would disarm).
    const auto left =
        std::max(std::chrono::nanoseconds(1),
                 std::chrono::duration_cast<std::chrono::nanoseconds>(*deadline - now));
    spec.it_value.tv_sec = static_cast<time_t>(left.count() / 1'000'000'000);
    spec.it_value.tv_nsec = static_cast<long>(left.count() % 1'000'000'000);
  }
  if (::timerfd_settime(m_timer, 0, &spec, nullptr) != 0) {
    fail("timerfd_settime");
  }
}

void EventLoop::wake() {
  const std::uint64_t one = 1;
  while (::write(m_wake, &one, sizeof one) < 0 && errno == EINTR) {
  }
}

std::size_t EventLoop::step(std::optional<std::chrono::milliseconds> max_wait) {
  std::array<epoll_event, k_max_events> events{};
  const int timeout = max_wait ? static_cast<int>(max_wait->count()) : -1;
  int ready = ::epoll_wait(m_epoll, events.data(), k_max_events, timeout);
  m_timer_fired = false;
  if (ready < 0) {
    if (errno == EINTR) {
      return 0;
    }
    fail("epoll_wait");
  }
  // Handlers may remove descriptors (a closed connection), so look each up
  // again rather than holding on to the handler.
  std::vector<std::pair<int, std::uint32_t>> fired;
  for (int i = 0; i < ready; ++i) {
    const int fd = events[static_cast<std::size_t>(i)].data.fd;
    if (fd == m_timer) {
      drain(m_timer);
      m_timer_fired = true;
      m_armed.reset();
    } else if (fd == m_wake) {
      drain(m_wake);
    } else {
      const std::uint32_t bits = events[static_cast<std::size_t>(i)].events; // packed: copy
      fired.emplace_back(fd, bits);
    }
  }
  for (const auto& [fd, bits] : fired) {
    const auto found = m_handlers.find(fd);
    if (found != m_handlers.end()) {
      Handler handler = found->second; // a copy: the handler may remove itself
      handler(bits);
    }
  }
  return static_cast<std::size_t>(ready);
}

} // namespace engram::daemon
