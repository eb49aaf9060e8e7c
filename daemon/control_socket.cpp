// The control socket over AF_UNIX stream sockets: non-blocking on the daemon's
// side (a slow client never stalls the loop), blocking with a deadline on the
// client's side.
#include "daemon/control_socket.hpp"

#include "base/error.hpp"
#include "base/platform.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace engram::daemon {

namespace fs = std::filesystem;

namespace {

// The most clients connected at once.
constexpr std::size_t k_max_connections = 64;

// A socket address for `path`; throws when the path does not fit.
sockaddr_un address_of(const fs::path& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string text = path.string();
  if (text.size() >= sizeof address.sun_path) {
    throw Error("control socket path too long ({} bytes): {}", text.size(), text);
  }
  std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
  return address;
}

// Creates `folder` mode 0700 when missing, then checks nobody else may use it.
void make_private_folder(const fs::path& folder) {
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
    throw Error("cannot create {}: {}", folder.string(), std::strerror(errno));
  }
  struct stat info {};
  if (::lstat(folder.c_str(), &info) != 0) {
    throw Error("cannot read {}: {}", folder.string(), std::strerror(errno));
  }
  if (!S_ISDIR(info.st_mode) || info.st_uid != ::getuid() || (info.st_mode & 077) != 0) {
    throw Error("{} is not a private folder of this user (mode 0700); refusing to put the "
                "control socket there",
                folder.string());
  }
}

// FNV-1a, 64 bits: short, stable across runs and builds, no dependency.
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

// Writes all of `bytes` to a blocking descriptor; false when it fails.
bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = platform::send_quietly(fd, bytes.data(), bytes.size());
    if (sent < 0) {
      if (errno == EINTR) {
        continue;
      }
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

} // namespace

fs::path socket_folder() {
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  std::error_code missing;
  // A runtime directory that is not there (a variable that outlived its
  // session, as `su` can leave it) is passed over for the /tmp folder rather
  // than failing every command; daemon and clients pass it over alike.
  if (runtime != nullptr && *runtime != '\0' && fs::is_directory(runtime, missing)) {
    const fs::path folder = fs::path(runtime) / "engram";
    make_private_folder(folder);
    return folder;
  }
  const fs::path folder = fs::path("/tmp") / fmt::format("engram-{}", ::getuid());
  try {
    make_private_folder(folder);
    return folder;
  } catch (const Error& error) {
    // Anyone may make /tmp/engram-<uid> first; then the user's own state
    // folder holds the sockets, which daemon and clients both find.
    const char* home = std::getenv("HOME");
    if (home == nullptr || *home == '\0') {
      throw;
    }
    const fs::path fallback = fs::path(home) / ".local" / "state" / "engram" / "run";
    std::error_code ec;
    fs::create_directories(fallback.parent_path(), ec);
    make_private_folder(fallback);
    spdlog::debug("{}; the control sockets are in {}", error.what(), fallback.string());
    return fallback;
  }
}

fs::path socket_path(const fs::path& root) {
  return socket_path(root, socket_folder());
}

fs::path socket_path(const fs::path& root, const fs::path& folder) {
  std::error_code error;
  fs::path canonical = fs::weakly_canonical(root, error);
  if (error) {
    canonical = root.lexically_normal();
  }
  // A trailing separator must not make a second socket for the same folder.
  std::string text = canonical.string();
  while (text.size() > 1 && text.back() == '/') {
    text.pop_back();
  }
  return folder / fmt::format("{:016x}.sock", fnv1a(text));
}

ControlServer::ControlServer(EventLoop& loop, fs::path path, RequestHandler handler)
    : m_loop(loop), m_path(std::move(path)), m_handler(std::move(handler)) {
  const sockaddr_un address = address_of(m_path);
  m_listener = platform::make_socket(AF_UNIX, SOCK_STREAM, true);
  if (m_listener < 0) {
    throw Error("cannot create the control socket: {}", std::strerror(errno));
  }
  // The caller holds the store's lock, so a socket file left here is stale.
  ::unlink(m_path.c_str());
  // Mode 0600 from the start: no window in which another user could connect.
  const mode_t old_mask = ::umask(0177);
  const int bound = ::bind(m_listener, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  const int bind_error = errno;
  ::umask(old_mask);
  if (bound != 0 || ::listen(m_listener, 16) != 0) {
    const int code = bound != 0 ? bind_error : errno;
    ::close(m_listener);
    throw Error("cannot listen on {}: {}", m_path.string(), std::strerror(code));
  }
  m_loop.add(m_listener, [this](std::uint32_t) { accept_all(); });
}

ControlServer::~ControlServer() {
  while (!m_connections.empty()) {
    drop(m_connections.begin()->first);
  }
  m_loop.remove(m_listener);
  ::close(m_listener);
  ::unlink(m_path.c_str());
}

void ControlServer::accept_all() {
  for (;;) {
    const int fd = platform::accept_connection(m_listener);
    if (fd < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        spdlog::warn("control socket: accept failed: {}", std::strerror(errno));
      }
      return;
    }
    if (m_connections.size() >= k_max_connections && !make_room()) {
      ::close(fd);
      spdlog::warn("control socket: {} clients wait on replies; one more refused",
                   m_connections.size());
      continue;
    }
    // The socket's mode keeps other users out; this holds even when the mode
    // or the folder's was loosened (by hand, or a runtime folder shared).
    // Where the system cannot name the peer, the mode alone is the guard.
    if (const auto peer = platform::peer_uid(fd); peer && *peer != ::geteuid()) {
      spdlog::warn("control socket: refused a client of uid {} (this daemon runs as uid {})", *peer,
                   ::geteuid());
      write_all(fd, R"({"ok":false,"error":"this daemon serves only its own user"})"
                    "\n");
      ::close(fd);
      continue;
    }
    const ConnectionId id = m_next++;
    m_connections[id].fd = fd;
    m_connections[id].active = std::chrono::steady_clock::now();
    m_loop.add(fd, [this, id](std::uint32_t events) { on_ready(id, events); });
  }
}

bool ControlServer::make_room() {
  // Idle clients hold places others need (a client that connects and never
  // asks, or sixty-four of them): the one idle longest makes way.
  auto idlest = m_connections.end();
  for (auto it = m_connections.begin(); it != m_connections.end(); ++it) {
    const bool idle = it->second.owed == 0 && it->second.out.empty();
    if (idle && (idlest == m_connections.end() || it->second.active < idlest->second.active)) {
      idlest = it;
    }
  }
  if (idlest == m_connections.end()) {
    return false;
  }
  spdlog::debug("control socket: every place taken; the client idle longest is let go");
  drop(idlest->first);
  return true;
}

void ControlServer::on_ready(ConnectionId id, std::uint32_t events) {
  if ((events & k_writable) != 0U) {
    flush(id);
  }
  auto found = m_connections.find(id);
  if (found == m_connections.end() || (events & (k_readable | k_hangup)) == 0U) {
    return;
  }
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::recv(found->second.fd, buffer, sizeof buffer, 0);
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
      drop(id); // the client is gone; a reply still owed to it is dropped
      return;
    }
    if (got < 0) {
      return;
    }
    found->second.active = std::chrono::steady_clock::now();
    if (!found->second.in.feed({buffer, static_cast<std::size_t>(got)})) {
      reply(id, failure("request too long"));
      drop(id);
      return;
    }
    // Dispatch each complete line; the handler may reply (or not yet), and a
    // reply that fails to send drops the connection.
    for (;;) {
      found = m_connections.find(id);
      if (found == m_connections.end()) {
        return;
      }
      auto line = found->second.in.next_line();
      if (!line) {
        break;
      }
      const auto request = parse_request_line(*line);
      if (!request) {
        reply(id, failure("a request is one JSON object on one line"));
        continue;
      }
      ++found->second.owed;
      try {
        m_handler(id, *request);
      } catch (const std::exception& error) {
        // One bad request must not take the daemon down.
        spdlog::error("control request failed: {}", error.what());
        reply(id, failure(error.what()));
      }
    }
  }
}

void ControlServer::reply(ConnectionId id, const nlohmann::json& reply) {
  const auto found = m_connections.find(id);
  if (found == m_connections.end()) {
    return;
  }
  if (found->second.owed > 0) {
    --found->second.owed;
  }
  tell(id, reply); // a reply is the last line a request is owed
}

void ControlServer::tell(ConnectionId id, const nlohmann::json& message) {
  const auto found = m_connections.find(id);
  if (found == m_connections.end()) {
    return;
  }
  const bool was_idle = found->second.out.empty();
  found->second.active = std::chrono::steady_clock::now();
  found->second.out += reply_line(message);
  if (was_idle) {
    flush(id);
  }
}

void ControlServer::flush(ConnectionId id) {
  const auto found = m_connections.find(id);
  if (found == m_connections.end()) {
    return;
  }
  Connection& connection = found->second;
  while (!connection.out.empty()) {
    const ssize_t sent =
        platform::send_quietly(connection.fd, connection.out.data(), connection.out.size());
    if (sent < 0) {
      if (errno == EINTR) {
        continue;
      }
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        m_loop.want_write(connection.fd, true);
        return;
      }
      drop(id);
      return;
    }
    connection.out.erase(0, static_cast<std::size_t>(sent));
  }
  m_loop.want_write(connection.fd, false);
}

void ControlServer::drop(ConnectionId id) {
  const auto found = m_connections.find(id);
  if (found == m_connections.end()) {
    return;
  }
  m_loop.remove(found->second.fd);
  ::close(found->second.fd);
  m_connections.erase(found);
}

std::optional<nlohmann::json> ask(const fs::path& path, const nlohmann::json& request,
                                  std::optional<std::chrono::milliseconds> timeout,
                                  const std::function<void(const ProgressReport&)>& on_progress) {
  const sockaddr_un address = address_of(path);
  const int fd = platform::make_socket(AF_UNIX, SOCK_STREAM, false);
  if (fd < 0) {
    throw Error("cannot create a socket: {}", std::strerror(errno));
  }
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const int code = errno;
    ::close(fd);
    if (code == ENOENT || code == ECONNREFUSED || code == ENOTDIR) {
      return std::nullopt; // nobody keeps this store
    }
    throw Error("cannot reach the daemon at {}: {}", path.string(), std::strerror(code));
  }
  if (!write_all(fd, request.dump() + "\n")) {
    const int code = errno;
    ::close(fd);
    throw Error("cannot send to the daemon at {}: {}", path.string(), std::strerror(code));
  }
  const auto deadline = timeout ? std::optional(Clock::now() + *timeout) : std::nullopt;
  std::string line;
  char buffer[4096];
  for (;;) {
    const auto newline = line.find('\n');
    if (newline != std::string::npos) {
      nlohmann::json reply = nlohmann::json::parse(line.substr(0, newline), nullptr, false);
      if (const auto report = progress_of(reply)) {
        line.erase(0, newline + 1);
        if (on_progress) {
          on_progress(*report);
        }
        continue; // the reply comes after
      }
      ::close(fd);
      if (reply.is_discarded()) {
        throw Error("the daemon at {} sent a reply that is not JSON", path.string());
      }
      return reply;
    }
    int wait_ms = -1;
    if (deadline) {
      wait_ms = static_cast<int>(std::max<std::int64_t>(
          0,
          std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count()));
    }
    pollfd waiting{fd, POLLIN, 0};
    const int ready = ::poll(&waiting, 1, wait_ms);
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready == 0) {
      ::close(fd);
      throw Error("the daemon at {} did not answer in time", path.string());
    }
    const ssize_t got = ready < 0 ? -1 : ::recv(fd, buffer, sizeof buffer, 0);
    if (got <= 0) {
      if (got < 0 && errno == EINTR) {
        continue;
      }
      ::close(fd);
      throw Error("the daemon at {} closed the connection without answering", path.string());
    }
    line.append(buffer, static_cast<std::size_t>(got));
  }
}

} // namespace engram::daemon
