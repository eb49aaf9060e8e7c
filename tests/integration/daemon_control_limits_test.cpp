// The control socket stays open to its user: clients that connect and never
// ask cannot shut the others out (the one idle longest makes way), and a
// /tmp/engram-<uid> another user made first does not stop the daemon (its
// sockets go to the user's own state folder, where the clients look too).
#include "daemon/control_socket.hpp"
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>
#include <sys/socket.h>
#include <sys/un.h>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// A client connected to `socket` that never sends anything; -1 when it cannot connect.
int idle_client(const fs::path& socket) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", socket.c_str());
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

} // namespace

TEST_CASE("a hundred idle clients on the control socket do not shut out a status request") {
  const Sandbox sandbox;
  const auto made = daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  const fs::path socket =
      engram::daemon::socket_path(made.store, sandbox.root() / "home" / "engram");
  std::vector<int> idle;
  for (int i = 0; i < 100; ++i) {
    const int fd = idle_client(socket);
    REQUIRE(fd >= 0);
    idle.push_back(fd);
  }
  // Each request gets its answer, though every place was taken by an idle client.
  for (int i = 0; i < 3; ++i) {
    const auto reply = daemon.ask({{"request", "status"}});
    CHECK(reply.value("ok", false));
  }
  const auto status = sandbox.engram({"status", "--store", made.store.string(), "--json"});
  CHECK_THAT(status.out, Catch::Contains(std::to_string(daemon.pid())));
  for (const int fd : idle) {
    ::close(fd);
  }
  CHECK(daemon.stop() == 0);
}

TEST_CASE("a /tmp/engram-<uid> another user made first does not stop the daemon starting") {
  if (::geteuid() != 0) {
    WARN("skipped: acting as a second user needs root");
    return;
  }
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  // nobody runs the daemon; root made nobody's /tmp folder first.
  const fs::path squatted = "/tmp/engram-65534";
  const bool made = fs::create_directory(squatted);
  REQUIRE(::chown(squatted.c_str(), 0, 0) == 0);
  REQUIRE(run({"chown", "-R", "65534:65534", sandbox.root().string()}).exit_code == 0);
  Environment environment = sandbox.engram_environment();
  environment["XDG_RUNTIME_DIR"] = "";
  const std::vector<std::string> as_nobody{"setpriv", "--reuid=65534", "--regid=65534",
                                           "--clear-groups", ENGRAM_BINARY};
  auto command = as_nobody;
  command.insert(command.end(), {"daemon", "--store", store.string()});
  const fs::path out = sandbox.root() / "daemon.out";
  const fs::path err = sandbox.root() / "daemon.err";
  const pid_t daemon = spawn(command, environment, out, err);
  const fs::path sockets = sandbox.root() / "home" / ".local" / "state" / "engram" / "run";
  const bool listening = wait_until(
      [&] {
        std::error_code ec;
        return fs::exists(engram::daemon::socket_path(store, sockets), ec);
      },
      std::chrono::seconds(20));
  INFO(read_file(err));
  CHECK(listening);
  auto status = as_nobody;
  status.insert(status.end(), {"status", "--store", store.string(), "--json"});
  const auto answered = run(status, environment);
  INFO(answered.out << answered.err);
  CHECK_THAT(answered.out, Catch::Contains(std::to_string(daemon)));
  ::kill(daemon, SIGTERM);
  int code = 0;
  ::waitpid(daemon, &code, 0);
  if (made) {
    fs::remove(squatted);
  }
  REQUIRE(run({"chown", "-R", "0:0", sandbox.root().string()}).exit_code == 0);
}
