// DaemonProcess and NotifySocket: the daemon under test as a child process,
// seen the way a service manager sees it.
#include "lib/daemon_process.hpp"

#include "daemon/control_socket.hpp"
#include "lib/time_scale.hpp"

// For the listener below: Catch2 v2 declares its reporter types only on request.
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace engram::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// The whole of a small text file; empty when it does not exist.
std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Counts the failed assertions of the run, so that a DaemonProcess can tell
// whether its test failed while it ran: an INFO of the log is taken when it is
// written, long before the failure it should explain.
class FailureCounter : public Catch::TestEventListenerBase {
public:
  using TestEventListenerBase::TestEventListenerBase;
  static std::size_t failures() { return s_failures; }
  bool assertionEnded(const Catch::AssertionStats& stats) override {
    if (!stats.assertionResult.isOk()) {
      ++s_failures;
    }
    return true;
  }

private:
  static inline std::size_t s_failures = 0;
};

// The first line of `text`, without its ending.
std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

} // namespace

CATCH_REGISTER_LISTENER(FailureCounter)

NotifySocket::NotifySocket(fs::path path) : m_path(std::move(path)) {
  m_fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string text = m_path.string();
  if (m_fd < 0 || text.size() >= sizeof address.sun_path) {
    throw std::runtime_error("cannot make a notify socket at " + text);
  }
  std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
  if (::bind(m_fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    throw std::runtime_error("cannot bind " + text + ": " + std::strerror(errno));
  }
}

NotifySocket::~NotifySocket() {
  ::close(m_fd);
  ::unlink(m_path.c_str());
}

void NotifySocket::receive(std::chrono::milliseconds timeout) {
  pollfd waiting{m_fd, POLLIN, 0};
  if (::poll(&waiting, 1, static_cast<int>(timeout.count())) <= 0) {
    return;
  }
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::recv(m_fd, buffer, sizeof buffer, 0);
    if (got <= 0) {
      return;
    }
    m_received.emplace_back(buffer, static_cast<std::size_t>(got));
  }
}

bool NotifySocket::wait_for(const std::string& needle, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    for (; m_seen < m_received.size(); ++m_seen) {
      if (m_received[m_seen].find(needle) != std::string::npos) {
        ++m_seen;
        return true;
      }
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left <= 0ms) {
      return false;
    }
    receive(left);
  }
}

DaemonProcess::DaemonProcess(const Sandbox& sandbox, const fs::path& store,
                             const std::optional<fs::path>& config, const Environment& environment,
                             const std::vector<fs::path>& more_stores)
    : m_sandbox(sandbox), m_store(store), m_notify(m_dir / "notify.sock"),
      m_failures_before(FailureCounter::failures()) {
  std::vector<std::string> command{ENGRAM_BINARY};
  if (config) {
    command.insert(command.end(), {"--config", config->string()});
  }
  command.insert(command.end(), {"daemon", "--store", store.string()});
  for (const auto& more : more_stores) {
    command.insert(command.end(), {"--store", more.string()});
  }
  Environment changes = sandbox.engram_environment();
  changes["NOTIFY_SOCKET"] = m_notify.path().string();
  for (const auto& [name, value] : environment) {
    changes[name] = value;
  }
  m_pid = spawn(command, changes, m_dir / "stdout", m_dir / "stderr");
  if (!m_notify.wait_for("READY=1", 10s)) {
    // The destructor does not run for a constructor that fails: stop it here.
    ::kill(m_pid, SIGKILL);
    int status = 0;
    ::waitpid(m_pid, &status, 0);
    m_reaped = true;
    INFO(log());
    FAIL("the daemon did not report READY=1 within 10 s");
  }
}

DaemonProcess::~DaemonProcess() {
  if (!m_reaped) {
    ::kill(m_pid, SIGKILL);
    int status = 0;
    ::waitpid(m_pid, &status, 0);
  }
  if (FailureCounter::failures() != m_failures_before) {
    // On stderr, which ctest keeps with the failure.
    std::fprintf(stderr, "--- the daemon's whole log (pid %d) ---\n%s--- end of log ---\n",
                 static_cast<int>(m_pid), log().c_str());
  }
}

bool DaemonProcess::wait_stopped(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t seen = ::waitpid(m_pid, &status, WNOHANG | WUNTRACED);
    if (seen == m_pid && WIFSTOPPED(status)) {
      return true;
    }
    if (seen == m_pid) {
      m_reaped = true; // it ended instead
      return false;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return false;
    }
    std::this_thread::sleep_for(10ms);
  }
}

void DaemonProcess::resume() const {
  ::kill(m_pid, SIGCONT);
}

void DaemonProcess::signal(int signal) const {
  ::kill(m_pid, signal);
}

std::optional<int> DaemonProcess::wait_exit(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(m_pid, &status, WNOHANG);
    if (done == m_pid) {
      m_reaped = true;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return std::nullopt;
    }
    std::this_thread::sleep_for(10ms);
  }
}

int DaemonProcess::stop() {
  signal(SIGTERM);
  return wait_exit(15s).value_or(-1);
}

std::string DaemonProcess::log() const {
  return slurp(m_dir / "stderr");
}

nlohmann::json DaemonProcess::ask(const nlohmann::json& request) const {
  const fs::path socket = daemon::socket_path(m_store, m_sandbox.root() / "home" / "engram");
  const auto reply = daemon::ask(socket, request, 10'000ms);
  if (!reply) {
    throw std::runtime_error("no daemon listens at " + socket.string());
  }
  return *reply;
}

nlohmann::json DaemonProcess::store_status() const {
  return ask({{"request", "status"}}).value("store", nlohmann::json::object());
}

bool DaemonProcess::wait_idle_after(std::size_t runs, std::chrono::milliseconds timeout) const {
  return wait_until(
      [&] {
        const auto status = store_status();
        return status.value("consolidations", std::size_t{0}) > runs &&
               status.value("state", "") == "idle" && status.value("pending_changes", 1) == 0;
      },
      timeout);
}

std::string daemon_config(const std::string& tables, const std::string& daemon_keys) {
  // Snapshots are not coalesced here, so each settled burst commits at once.
  // The poll watcher (the portable build's, and inotify's fallback) looks as
  // often as the daemon settles, so a test waits for a change, not a poll.
  const bool own_poll = daemon_keys.find("poll_interval_ms") != std::string::npos;
  return tables + "\n[git]\nsnapshot_interval_s = 0\n" +
         "\n[daemon]\nsettle_ms = 100\nmax_wait_ms = 1000\nidle_full_after_s = 0\n"
         "full_at = \"\"\n" +
         (own_poll ? "" : "poll_interval_ms = 100\n") + daemon_keys;
}

DaemonStore daemon_store(const Sandbox& sandbox, const std::string& tables,
                         const std::string& daemon_keys, const std::string& name) {
  DaemonStore made{sandbox.work(name), sandbox.work(name + ".toml")};
  write_file(made.config, daemon_config(tables, daemon_keys));
  const auto created =
      sandbox.engram({"--config", made.config.string(), "init", "--example",
                      std::string(ENGRAM_SOURCE_DIR) + "/examples/store", made.store.string()});
  INFO(created.err);
  REQUIRE(created.exit_code == 0);
  return made;
}

std::optional<std::string> head_of(const fs::path& store) {
  // Read from git's files rather than through a git process: cheap enough to poll.
  const std::string head = first_line(slurp(store / ".git" / "HEAD"));
  if (!head.starts_with("ref: ")) {
    return head.empty() ? std::nullopt : std::optional(head);
  }
  const std::string ref = head.substr(5);
  const std::string loose = first_line(slurp(store / ".git" / ref));
  if (!loose.empty()) {
    return loose;
  }
  std::istringstream packed(slurp(store / ".git" / "packed-refs"));
  for (std::string line; std::getline(packed, line);) {
    if (line.size() > 41 && line.substr(41) == ref) {
      return line.substr(0, 40);
    }
  }
  return std::nullopt;
}

std::string local_today() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &local);
  return text;
}

bool wait_until(const std::function<bool()>& condition, std::chrono::milliseconds timeout,
                std::chrono::milliseconds poll) {
  const auto deadline = std::chrono::steady_clock::now() + scaled(timeout);
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return false;
    }
    std::this_thread::sleep_for(poll);
  }
  return true;
}

std::vector<std::string> subjects_since(const Sandbox& sandbox, const fs::path& store,
                                        const std::optional<std::string>& since) {
  std::vector<std::string> args{"log", "--reverse", "--format=%s"};
  if (since) {
    args.push_back(*since + "..HEAD");
  }
  const auto result = sandbox.git(store, args);
  return result.out_lines();
}

} // namespace engram::test
