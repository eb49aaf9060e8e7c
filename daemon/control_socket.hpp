// The control socket: where `engram status`, `consolidate`, `pause`, `resume`
// and `reload` reach the daemon that keeps a store. A Unix stream socket, mode
// 0600 in a 0700 folder, one per store, speaking line-delimited JSON: each
// request is one object on one line, and gets one object on one line back.
#pragma once

#include "daemon/event_loop.hpp"
#include "daemon/protocol.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace engram::daemon {

// The private folder control sockets live in: `$XDG_RUNTIME_DIR/engram`, else
// `/tmp/engram-<uid>`, else (another user made that one first)
// `~/.local/state/engram/run`. Created mode 0700; throws engram::Error when
// the one chosen exists but is not a folder of this user that only this
// user can enter.
std::filesystem::path socket_folder();

// The control socket of the daemon keeping the store at `root`: a hash of the
// store's canonical path, so every spelling of the folder finds the same one.
std::filesystem::path socket_path(const std::filesystem::path& root);

// The control socket of the store at `root` inside `folder` (for a client that
// knows the daemon's runtime folder, as tests do).
std::filesystem::path socket_path(const std::filesystem::path& root,
                                  const std::filesystem::path& folder);

// Identifies one client connection for the life of the server.
using ConnectionId = std::uint64_t;

// The daemon's end: accepts connections on the loop and hands each request on.
class ControlServer {
public:
  // Called with each request a client sends (already parsed; an object).
  using RequestHandler = std::function<void(ConnectionId, const nlohmann::json& request)>;

  // Binds and listens at `path` (replacing a stale socket) and registers with
  // `loop`. Throws engram::Error when it cannot.
  ControlServer(EventLoop& loop, std::filesystem::path path, RequestHandler handler);
  // Closes every connection and removes the socket file.
  ~ControlServer();
  ControlServer(const ControlServer&) = delete;
  ControlServer& operator=(const ControlServer&) = delete;

  // Sends `reply` as one line; dropped when the client has gone.
  void reply(ConnectionId connection, const nlohmann::json& reply);

  // Sends `message` as one line before the reply still owed (a run's
  // progress); dropped when the client has gone.
  void tell(ConnectionId connection, const nlohmann::json& message);

  // True while the client of `connection` is still connected.
  bool connected(ConnectionId connection) const { return m_connections.count(connection) > 0; }

  // Where the socket is.
  const std::filesystem::path& path() const { return m_path; }

private:
  // One client: its descriptor and what is still to be parsed or sent.
  struct Connection {
    int fd = -1;
    RequestFramer in;                             // what it sent, cut into request lines
    std::string out;                              // what is still to be sent to it
    std::size_t owed = 0;                         // requests dispatched and not yet replied to
    std::chrono::steady_clock::time_point active; // when it last sent or was sent to
  };

  // Makes room for one more client when every place is taken: the client
  // idle longest (nothing owed, nothing to send) is let go. False when none is idle.
  bool make_room();

  // Accepts every pending connection.
  void accept_all();
  // Reads, parses and dispatches, or sends what is queued.
  void on_ready(ConnectionId id, std::uint32_t events);
  // Sends as much of the queued output as the socket takes.
  void flush(ConnectionId id);
  // Forgets a connection and closes its descriptor.
  void drop(ConnectionId id);

  EventLoop& m_loop;
  std::filesystem::path m_path;
  RequestHandler m_handler;
  int m_listener = -1;
  ConnectionId m_next = 1;
  std::map<ConnectionId, Connection> m_connections;
};

// Sends one request to the socket at `path` and waits for its reply (at most
// `timeout`, nullopt: as long as it takes). Returns nullopt when no daemon
// listens there; throws engram::Error when one does but the exchange fails.
// Progress lines before the reply (a request that asked for them) go to
// `on_progress`.
std::optional<nlohmann::json>
ask(const std::filesystem::path& path, const nlohmann::json& request,
    std::optional<std::chrono::milliseconds> timeout,
    const std::function<void(const ProgressReport&)>& on_progress = {});

} // namespace engram::daemon
