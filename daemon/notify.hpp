// Notifier: the service manager's side channel. Under systemd (`Type=notify`)
// it sends READY=1 once the stores are watched, STATUS= lines saying what the
// daemon does, WATCHDOG=1 keep-alives when `WatchdogSec=` asks for them, and
// STOPPING=1. Elsewhere (launchd, a terminal) every call does nothing.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace engram::daemon {

// Notifications to the service manager, when there is one.
class Notifier {
public:
  // Reads NOTIFY_SOCKET and the watchdog settings from the environment.
  Notifier();
  // Closes the notification socket.
  ~Notifier();
  Notifier(const Notifier&) = delete;
  Notifier& operator=(const Notifier&) = delete;

  // Start-up is complete: every store is watched and scanned.
  void ready(const std::string& status);

  // What the daemon is doing now, in one line; repeats are not sent again.
  void status(const std::string& status);

  // The daemon is shutting down.
  void stopping(const std::string& status);

  // Tells the watchdog the loop is alive.
  void alive();

  // How often alive() must be called: half the watchdog timeout; nullopt when
  // no watchdog is set, so an idle daemon has nothing to wake up for.
  std::optional<std::chrono::milliseconds> watchdog_interval() const { return m_watchdog; }

private:
  // Sends one notification; failures are logged once, never fatal.
  void send(const std::string& message);
  // Logs the first failure to notify, and no other.
  void warn_once(const std::string& reason);

  std::optional<std::chrono::milliseconds> m_watchdog;
  std::string m_last_status;
  bool m_warned = false;
  int m_fd = -1; // a non-blocking datagram socket, made at the first notification
};

} // namespace engram::daemon
