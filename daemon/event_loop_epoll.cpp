// EventLoop over Linux's epoll, timerfd and eventfd (see event_loop.hpp).
#include "base/error.hpp"
#include "daemon/event_loop.hpp"

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

// epoll's bits as the loop's.
std::uint32_t readiness(std::uint32_t events) {
  return ((events & EPOLLIN) != 0U ? k_readable : 0U) |
         ((events & EPOLLOUT) != 0U ? k_writable : 0U) |
         ((events & (EPOLLHUP | EPOLLERR)) != 0U ? k_hangup : 0U);
}

} // namespace

struct EventLoop::Backend {
  int epoll = -1; // the epoll instance
  int timer = -1; // the one deadline, CLOCK_MONOTONIC
  int wake = -1;  // eventfd other threads write to

  ~Backend() {
    for (int fd : {wake, timer, epoll}) {
      if (fd >= 0) {
        ::close(fd);
      }
    }
  }

  // Registers or re-registers `fd` with epoll.
  void control(int op, int fd, bool write) const {
    epoll_event event{};
    event.events = EPOLLIN | (write ? EPOLLOUT : 0U);
    event.data.fd = fd;
    if (::epoll_ctl(epoll, op, fd, &event) != 0) {
      fail("epoll_ctl");
    }
  }
};

EventLoop::EventLoop() : m_backend(std::make_unique<Backend>()) {
  m_backend->epoll = ::epoll_create1(EPOLL_CLOEXEC);
  if (m_backend->epoll < 0) {
    fail("epoll_create1");
  }
  m_backend->timer = ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (m_backend->timer < 0) {
    fail("timerfd_create");
  }
  m_backend->wake = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (m_backend->wake < 0) {
    fail("eventfd");
  }
  m_backend->control(EPOLL_CTL_ADD, m_backend->timer, false);
  m_backend->control(EPOLL_CTL_ADD, m_backend->wake, false);
}

EventLoop::~EventLoop() = default;

void EventLoop::add(int fd, Handler handler, bool write) {
  m_backend->control(EPOLL_CTL_ADD, fd, write);
  m_handlers[fd] = std::move(handler);
}

void EventLoop::want_write(int fd, bool write) {
  m_backend->control(EPOLL_CTL_MOD, fd, write);
}

void EventLoop::remove(int fd) {
  if (m_handlers.erase(fd) > 0) {
    ::epoll_ctl(m_backend->epoll, EPOLL_CTL_DEL, fd, nullptr);
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
  if (::timerfd_settime(m_backend->timer, 0, &spec, nullptr) != 0) {
    fail("timerfd_settime");
  }
}

void EventLoop::wake() {
  const std::uint64_t one = 1;
  while (::write(m_backend->wake, &one, sizeof one) < 0 && errno == EINTR) {
  }
}

std::size_t EventLoop::step(std::optional<std::chrono::milliseconds> max_wait) {
  std::array<epoll_event, k_max_events> events{};
  const int timeout = max_wait ? static_cast<int>(max_wait->count()) : -1;
  int ready = ::epoll_wait(m_backend->epoll, events.data(), k_max_events, timeout);
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
    if (fd == m_backend->timer) {
      drain(m_backend->timer);
      m_timer_fired = true;
      m_armed.reset();
    } else if (fd == m_backend->wake) {
      drain(m_backend->wake);
    } else {
      const std::uint32_t bits = events[static_cast<std::size_t>(i)].events; // packed: copy
      fired.emplace_back(fd, readiness(bits));
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
