// Notifier: the sd_notify protocol, sent without blocking, to NOTIFY_SOCKET
// when a service manager set it, and the watchdog read from WATCHDOG_USEC:
// plain datagrams and variables, so no build needs libsystemd for them.
#include "daemon/notify.hpp"

#include "base/platform.hpp"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace engram::daemon {

Notifier::Notifier() {
  // The watchdog as systemd describes it: WATCHDOG_USEC, for this process
  // when WATCHDOG_PID names it or is unset; pinged at half the interval.
  const char* usec_text = std::getenv("WATCHDOG_USEC");
  const char* pid_text = std::getenv("WATCHDOG_PID");
  if (usec_text == nullptr ||
      (pid_text != nullptr && *pid_text != '\0' && std::atol(pid_text) != ::getpid())) {
    return;
  }
  const auto usec = std::strtoull(usec_text, nullptr, 10);
  if (usec > 0) {
    m_watchdog = std::chrono::milliseconds(std::max<std::uint64_t>(1, usec / 2000));
  }
}

void Notifier::send(const std::string& message) {
  // The protocol itself needs no libsystemd: one datagram to NOTIFY_SOCKET,
  // which only a service manager (or a test standing in for one) sets.
  // Not sd_notify: it sends blocking, and a service manager that does not
  // read (hung, or a test's socket nobody drains) would stop the event loop
  // once its queue is full. A notification that does not fit is dropped; the
  // next STATUS= says the same and more.
  const char* socket_path = std::getenv("NOTIFY_SOCKET");
  if (socket_path == nullptr || *socket_path == '\0') {
    return;
  }
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::size_t length = std::strlen(socket_path);
  if ((socket_path[0] != '/' && socket_path[0] != '@') || length >= sizeof address.sun_path) {
    warn_once("NOTIFY_SOCKET is not a socket path");
    return;
  }
  std::memcpy(address.sun_path, socket_path, length);
  if (address.sun_path[0] == '@') {
    address.sun_path[0] = '\0'; // the abstract namespace
  }
  if (m_fd < 0) {
    m_fd = platform::make_socket(AF_UNIX, SOCK_DGRAM, true);
    if (m_fd < 0) {
      warn_once(std::strerror(errno));
      return;
    }
  }
  const auto size = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + length);
  if (::sendto(m_fd, message.data(), message.size(), 0, reinterpret_cast<const sockaddr*>(&address),
               size) < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      spdlog::debug("the service manager is not reading notifications; one was dropped");
      return;
    }
    warn_once(std::strerror(errno));
  }
}

void Notifier::warn_once(const std::string& reason) {
  if (!m_warned) {
    m_warned = true;
    spdlog::warn("cannot notify the service manager: {}", reason);
  }
}

Notifier::~Notifier() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
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
