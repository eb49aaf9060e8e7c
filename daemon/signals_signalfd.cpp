// Signals over Linux's signalfd(2) (see signals.hpp): blocked in this thread
// and every thread it starts later, so only the loop ever sees them.
#include "base/error.hpp"
#include "daemon/signals.hpp"

#include <cerrno>
#include <cstring>
#include <sys/signalfd.h>
#include <unistd.h>

namespace engram::daemon {

struct Signals::Previous {
  sigset_t mask{}; // the mask in force before, restored on destruction
};

Signals::Signals() : m_previous(std::make_unique<Previous>()) {
  sigset_t handled;
  sigemptyset(&handled);
  for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
    sigaddset(&handled, signal);
  }
  if (pthread_sigmask(SIG_BLOCK, &handled, &m_previous->mask) != 0) {
    throw Error("cannot block signals: {}", std::strerror(errno));
  }
  // A client that hangs up before its reply must not kill the daemon.
  std::signal(SIGPIPE, SIG_IGN);
  m_fd = ::signalfd(-1, &handled, SFD_NONBLOCK | SFD_CLOEXEC);
  if (m_fd < 0) {
    const int code = errno;
    pthread_sigmask(SIG_SETMASK, &m_previous->mask, nullptr);
    throw Error("signalfd: {}", std::strerror(code));
  }
}

Signals::~Signals() {
  ::close(m_fd);
  pthread_sigmask(SIG_SETMASK, &m_previous->mask, nullptr);
}

std::optional<int> Signals::next() {
  signalfd_siginfo info{};
  for (;;) {
    const ssize_t got = ::read(m_fd, &info, sizeof info);
    if (got == static_cast<ssize_t>(sizeof info)) {
      return static_cast<int>(info.ssi_signo);
    }
    if (got < 0 && errno == EINTR) {
      continue;
    }
    return std::nullopt;
  }
}

} // namespace engram::daemon
