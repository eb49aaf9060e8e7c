// The control socket: a private socket per store, line-delimited JSON, one
// reply per request, served by the loop while the client blocks.
#include "base/platform.hpp"
#include "daemon/control_socket.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <future>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using engram::daemon::ask;
using engram::daemon::ConnectionId;
using engram::daemon::ControlServer;
using engram::daemon::EventLoop;
using engram::test::TempDir;
using namespace std::chrono_literals;

namespace {

// Sets XDG_RUNTIME_DIR for the life of the object.
struct RuntimeDir {
  explicit RuntimeDir(const std::filesystem::path& path) {
    ::setenv("XDG_RUNTIME_DIR", path.c_str(), 1);
  }
  ~RuntimeDir() { ::unsetenv("XDG_RUNTIME_DIR"); }
};

// Steps `loop` until `future` is ready (at most a few seconds) and returns its value.
template <typename T> T serve_until(EventLoop& loop, std::future<T>& future) {
  for (int i = 0; i < 500 && future.wait_for(0ms) != std::future_status::ready; ++i) {
    loop.step(10ms);
  }
  REQUIRE(future.wait_for(0ms) == std::future_status::ready);
  return future.get();
}

// Connects to `path`, sends `bytes` as they are, and returns the first line
// that comes back (empty when none does).
std::string exchange(const std::filesystem::path& path, const std::string& bytes) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
    ::close(fd);
    return {};
  }
  std::string reply;
  char buffer[256];
  while (reply.find('\n') == std::string::npos) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) {
      break;
    }
    reply.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return reply.substr(0, reply.find('\n'));
}

} // namespace

TEST_CASE("a store's daemon socket is in a private folder of the runtime directory, by path hash") {
  const TempDir runtime;
  const RuntimeDir env(runtime.path());
  const TempDir store;
  const auto path = engram::daemon::socket_path(store.path());
  CHECK(path.parent_path() == runtime / "engram");
  CHECK(path.extension() == ".sock");
  CHECK(engram::daemon::socket_path(store / "." / "") == path);
  struct stat info {};
  REQUIRE(::stat((runtime / "engram").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0700);
}

TEST_CASE("a runtime directory that is not there is passed over, not created or failed on") {
  const TempDir runtime;
  const RuntimeDir env(runtime / "gone");
  const auto folder = engram::daemon::socket_folder();
  CHECK_FALSE(std::filesystem::exists(runtime / "gone"));
  CHECK(folder.string().rfind((runtime / "gone").string(), 0) != 0);
  struct stat info {};
  REQUIRE(::stat(folder.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0700);
}

TEST_CASE("a folder others can enter is refused for the daemon's socket") {
  const TempDir runtime;
  const RuntimeDir env(runtime.path());
  std::filesystem::create_directories(runtime / "engram");
  ::chmod((runtime / "engram").c_str(), 0755);
  CHECK_THROWS_WITH(engram::daemon::socket_folder(), Catch::Contains("not a private folder"));
}

TEST_CASE("a daemon request gets its reply, the socket is mode 0600, and it goes with the server") {
  const TempDir runtime;
  EventLoop loop;
  const auto path = runtime / "test.sock";
  {
    ControlServer server(loop, path, [&](ConnectionId id, const nlohmann::json& request) {
      server.reply(id, {{"ok", true}, {"echo", request.value("request", "")}});
    });
    struct stat info {};
    REQUIRE(::stat(path.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);

    auto answer = std::async(std::launch::async, [&] {
      return ask(path, {{"request", "status"}}, 5000ms);
    });
    const auto reply = serve_until(loop, answer);
    REQUIRE(reply.has_value());
    CHECK(reply->value("echo", "") == "status");
  }
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("a daemon reply may come later, after other turns of the loop") {
  const TempDir runtime;
  EventLoop loop;
  std::optional<ConnectionId> waiting;
  ControlServer server(loop, runtime / "test.sock",
                       [&](ConnectionId id, const nlohmann::json&) { waiting = id; });
  auto answer = std::async(std::launch::async, [&] {
    return ask(runtime / "test.sock", {{"request", "consolidate"}}, std::nullopt);
  });
  for (int i = 0; i < 500 && !waiting; ++i) {
    loop.step(10ms);
  }
  REQUIRE(waiting.has_value());
  CHECK(server.connected(*waiting));
  server.reply(*waiting, {{"ok", true}, {"commit", "abc"}});
  const auto reply = serve_until(loop, answer);
  REQUIRE(reply.has_value());
  CHECK(reply->value("commit", "") == "abc");
}

TEST_CASE("progress lines told before the reply reach the asker in order, and the reply ends it") {
  const TempDir runtime;
  EventLoop loop;
  std::optional<ConnectionId> waiting;
  ControlServer server(loop, runtime / "test.sock",
                       [&](ConnectionId id, const nlohmann::json&) { waiting = id; });
  std::vector<std::string> seen; // written by the asking thread only
  auto answer = std::async(std::launch::async, [&] {
    return ask(runtime / "test.sock", {{"request", "consolidate"}, {"progress", true}},
               std::nullopt, [&](const engram::daemon::ProgressReport& report) {
                 seen.push_back(report.step + " " + std::to_string(report.done) + "/" +
                                std::to_string(report.total) + " " + report.units);
               });
  });
  for (int i = 0; i < 500 && !waiting; ++i) {
    loop.step(10ms);
  }
  REQUIRE(waiting.has_value());
  server.tell(*waiting, engram::daemon::progress_message({"rule dedupe", 2, 8, "rules"}));
  server.tell(*waiting,
              engram::daemon::progress_message({"rule episodic-decay", 40, 90, "episodic files"}));
  server.reply(*waiting, {{"ok", true}, {"commit", "abc"}});
  const auto reply = serve_until(loop, answer);
  REQUIRE(reply.has_value());
  CHECK(reply->value("commit", "") == "abc");
  CHECK(seen == std::vector<std::string>{"rule dedupe 2/8 rules",
                                         "rule episodic-decay 40/90 episodic files"});
}

TEST_CASE("a line to the daemon that is not a JSON object is answered with an error, not a crash") {
  const TempDir runtime;
  EventLoop loop;
  int handled = 0;
  ControlServer server(loop, runtime / "test.sock",
                       [&](ConnectionId, const nlohmann::json&) { ++handled; });
  auto answer = std::async(std::launch::async, [&] {
    return ask(runtime / "test.sock", nlohmann::json::array({1, 2}), 5000ms);
  });
  const auto reply = serve_until(loop, answer);
  REQUIRE(reply.has_value());
  CHECK_FALSE(reply->value("ok", true));
  CHECK(handled == 0);
}

TEST_CASE("asking where no daemon listens says so instead of failing") {
  const TempDir runtime;
  CHECK_FALSE(ask(runtime / "nobody.sock", {{"request", "status"}}, 1000ms).has_value());
}

TEST_CASE("a request line longer than the daemon accepts gets an error, and the daemon goes on") {
  const TempDir runtime;
  EventLoop loop;
  int handled = 0;
  ControlServer server(loop, runtime / "test.sock", [&](ConnectionId id, const nlohmann::json&) {
    ++handled;
    server.reply(id, {{"ok", true}});
  });
  // 100 KiB in one JSON string: a well-formed request, only too long.
  auto answer = std::async(std::launch::async, [&] {
    return ask(runtime / "test.sock", {{"request", std::string(100 * 1024, 'x')}}, 5000ms);
  });
  const auto reply = serve_until(loop, answer);
  REQUIRE(reply.has_value());
  CHECK_FALSE(reply->value("ok", true));
  CHECK(reply->value("error", "") == "request too long");
  CHECK(handled == 0);

  // Malformed lines, then a good request on a new connection: still served.
  const std::vector<std::string> bad_lines{"{\"request\":\n", "\xff\xfe not json\n", "null\n",
                                           "\"status\"\n", std::string("{\0}\n", 4)};
  for (const std::string& line : bad_lines) {
    auto bad =
        std::async(std::launch::async, [&] { return exchange(runtime / "test.sock", line); });
    const auto bad_reply = serve_until(loop, bad);
    INFO(bad_reply);
    CHECK_THAT(bad_reply, Catch::Contains("\"ok\":false"));
  }
  auto good = std::async(std::launch::async, [&] {
    return ask(runtime / "test.sock", {{"request", "status"}}, 5000ms);
  });
  const auto good_reply = serve_until(loop, good);
  REQUIRE(good_reply.has_value());
  CHECK(good_reply->value("ok", false));
  CHECK(handled == 1);
}

// Whether the platform backend can name the process at the other end of a socket.
bool peer_uid_known() {
  int ends[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends) == 0);
  const bool known = engram::platform::peer_uid(ends[0]).has_value();
  ::close(ends[0]);
  ::close(ends[1]);
  return known;
}

TEST_CASE("the daemon's socket refuses a client of another user even when its mode lets it in") {
  if (::geteuid() != 0) {
    WARN("not root: another user's client cannot be made here; not tested");
    return;
  }
  if (!peer_uid_known()) {
    WARN("this build's platform backend cannot name a socket's peer; the socket's mode is the "
         "only guard, not tested");
    return;
  }
  const TempDir runtime;
  EventLoop loop;
  int handled = 0;
  const auto path = runtime / "test.sock";
  ControlServer server(loop, path, [&](ConnectionId id, const nlohmann::json&) {
    ++handled;
    server.reply(id, {{"ok", true}});
  });
  // Loosened by hand: only the peer check is left to keep the other user out.
  REQUIRE(::chmod(runtime.path().c_str(), 0755) == 0);
  REQUIRE(::chmod(path.c_str(), 0666) == 0);

  // A child that becomes `nobody`, asks for the status and exits 0 when it
  // was refused with a reply, 1 when it was served, 2 when it could not ask.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) {
      ::_exit(2);
    }
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      ::_exit(2);
    }
    const char request[] = "{\"request\":\"status\"}\n";
    // The server may have refused and closed already: no SIGPIPE, read its reply.
    (void)::send(fd, request, sizeof request - 1, MSG_NOSIGNAL);
    char reply[512] = {};
    std::size_t got = 0;
    for (ssize_t n = 1; n > 0 && got < sizeof reply - 1;) {
      n = ::read(fd, reply + got, sizeof reply - 1 - got);
      got += n > 0 ? static_cast<std::size_t>(n) : 0;
    }
    ::_exit(std::strstr(reply, "only its own user") != nullptr ? 0 : 1);
  }
  int status = 0;
  pid_t done = 0;
  for (int i = 0; i < 500 && done == 0; ++i) {
    loop.step(10ms);
    done = ::waitpid(child, &status, WNOHANG);
  }
  if (done == 0) {
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
  }
  REQUIRE(done == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(handled == 0);

  // This user is still served.
  auto answer = std::async(std::launch::async, [&] {
    return ask(path, {{"request", "status"}}, 5000ms);
  });
  const auto reply = serve_until(loop, answer);
  REQUIRE(reply.has_value());
  CHECK(reply->value("ok", false));
  CHECK(handled == 1);
}
