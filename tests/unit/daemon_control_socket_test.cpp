// The control socket: a private socket per store, line-delimited JSON, one
// reply per request, served by the loop while the client blocks.
#include "daemon/control_socket.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <future>
#include <sys/stat.h>

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
