// Signals over a pipe (see signals.hpp): the classic self-pipe. A handler,
// installed with SA_RESTART so the other threads' calls go on, writes the
// signal's number down the pipe; the loop reads it. write(2) is one of the
// few calls a handler may make.
#include "base/error.hpp"
#include "base/platform.hpp"
#include "daemon/signals.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace engram::daemon {
namespace {

constexpr std::array<int, 3> k_handled{SIGTERM, SIGINT, SIGHUP};

// The pipe's write end, for the handler; -1 when no Signals exists.
volatile sig_atomic_t g_write_end = -1;

extern "C" void on_signal(int signal) {
  const int saved = errno;
  const unsigned char number = static_cast<unsigned char>(signal);
  if (g_write_end >= 0) {
    [[maybe_unused]] const auto wrote = ::write(g_write_end, &number, 1);
  }
  errno = saved;
}

// Makes `fd` non-blocking; throws engram::Error.
void nonblocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
    throw Error("cannot set up the signal pipe: {}", std::strerror(errno));
  }
}

} // namespace

struct Signals::Previous {
  std::array<struct sigaction, k_handled.size()> actions{}; // restored on destruction
  int write_end = -1;
};

Signals::Signals() : m_previous(std::make_unique<Previous>()) {
  int ends[2];
  if (!platform::cloexec_pipe(ends)) {
    throw Error("cannot set up the signal pipe: {}", std::strerror(errno));
  }
  m_fd = ends[0];
  m_previous->write_end = ends[1];
  nonblocking(ends[0]);
  nonblocking(ends[1]); // a full pipe drops a signal rather than block the handler
  g_write_end = ends[1];
  // A client that hangs up before its reply must not kill the daemon.
  std::signal(SIGPIPE, SIG_IGN);
  struct sigaction action {};
  action.sa_handler = on_signal;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < k_handled.size(); ++i) {
    ::sigaction(k_handled[i], &action, &m_previous->actions[i]);
  }
}

Signals::~Signals() {
  for (std::size_t i = 0; i < k_handled.size(); ++i) {
    ::sigaction(k_handled[i], &m_previous->actions[i], nullptr);
  }
  g_write_end = -1;
  ::close(m_previous->write_end);
  ::close(m_fd);
}

std::optional<int> Signals::next() {
  unsigned char number = 0;
  for (;;) {
    const ssize_t got = ::read(m_fd, &number, 1);
    if (got == 1) {
      return static_cast<int>(number);
    }
    if (got < 0 && errno == EINTR) {
      continue;
    }
    return std::nullopt;
  }
}

} // namespace engram::daemon
