// Notifier through libsystemd's sd_notify; the one place the daemon depends on
// systemd, so a build without libsystemd (macOS) simply never notifies.
#include "daemon/notify.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <spdlog/spdlog.h>

#ifdef ENGRAM_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

namespace engram::daemon {

Notifier::Notifier() {
#ifdef ENGRAM_HAVE_SYSTEMD
  std::uint64_t usec = 0;
  if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0) {
    m_watchdog = std::chrono::milliseconds(std::max<std::uint64_t>(1, usec / 2000));
  }
#endif
}

void Notifier::send(const std::string& message) {
#ifdef ENGRAM_HAVE_SYSTEMD
  const int sent = sd_notify(0, message.c_str());
  if (sent < 0 && !m_warned) {
    m_warned = true;
    spdlog::warn("cannot notify the service manager: {}", std::strerror(-sent));
  }
#else
  (void)message;
  (void)m_warned;
#endif
}

void Notifier::ready(const std::string& status) {
  m_last_status = status;
  send("READY=1\nSTATUS=" + status);
}

void Notifier::status(const std::string& status) {
  if (status == m_last_status) {
    return;
  }
  m_last_status = status;
  send("STATUS=" + status);
}

void Notifier::stopping(const std::string& status) {
  m_last_status = status;
  send("STOPPING=1\nSTATUS=" + status);
}

void Notifier::alive() {
  send("WATCHDOG=1");
}

} // namespace engram::daemon
