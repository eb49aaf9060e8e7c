// The wait of a daemon with nothing to keep, on its signals and a timeout.
#include "daemon/wait_for_store.hpp"

#include "daemon/signals.hpp"

#include <cerrno>
#include <poll.h>

namespace engram::daemon {

WaitEnd wait_for_store(const std::function<bool()>& ready, std::chrono::milliseconds interval) {
  Signals signals; // taken over for the wait only: the daemon takes them again
  while (true) {
    pollfd waiting{signals.fd(), POLLIN, 0};
    const int polled = ::poll(&waiting, 1, static_cast<int>(interval.count()));
    if (polled < 0 && errno != EINTR) {
      return WaitEnd::stopped; // cannot wait: stopping is the safe answer
    }
    while (const auto signal = signals.next()) {
      if (*signal != SIGHUP) {
        return WaitEnd::stopped;
      }
    }
    if (ready()) {
      return WaitEnd::store_ready;
    }
  }
}

} // namespace engram::daemon
