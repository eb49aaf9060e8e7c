// Waiting with nothing to keep. launchd has no way to be told "do not restart
// after this status" (systemd has RestartPreventExitStatus), so under launchd
// a daemon with no store it can keep waits for one instead of exiting, and is
// not restarted every few seconds to fail again.
#pragma once

#include <chrono>
#include <functional>

namespace engram::daemon {

// What ended the wait.
enum class WaitEnd {
  store_ready, // `ready` said a store can be kept now
  stopped,     // SIGTERM or SIGINT: the service is being stopped
};

// Asks `ready` every `interval`, and at once on SIGHUP, until it returns
// true or SIGTERM or SIGINT arrives. Sleeps in between: it does not spin.
WaitEnd wait_for_store(const std::function<bool()>& ready, std::chrono::milliseconds interval);

} // namespace engram::daemon
