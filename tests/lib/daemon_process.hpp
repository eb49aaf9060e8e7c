// The real `engram daemon` as a child process of a test, in a Sandbox: its
// own runtime folder (so its control socket is private to the test), and a
// NOTIFY_SOCKET the test reads, standing in for systemd, so the test sees
// READY=1, STATUS= and STOPPING=1 exactly as systemd would. Waits are bounded
// and wait for something observable (a datagram, a commit), never a guess.
#pragma once

#include "lib/process.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace engram::test {

// A datagram socket in the place of systemd's notification socket.
class NotifySocket {
public:
  // Binds a socket at `path`.
  explicit NotifySocket(std::filesystem::path path);
  ~NotifySocket();
  NotifySocket(const NotifySocket&) = delete;
  NotifySocket& operator=(const NotifySocket&) = delete;

  // Where it is, for NOTIFY_SOCKET.
  const std::filesystem::path& path() const { return m_path; }

  // Waits until a notification that contains `needle` arrives (or has
  // arrived since the last call that consumed it); false after `timeout`.
  bool wait_for(const std::string& needle, std::chrono::milliseconds timeout);

  // Every notification received so far, in order.
  const std::vector<std::string>& received() const { return m_received; }

private:
  // Reads what arrived, waiting at most `timeout` for the first datagram.
  void receive(std::chrono::milliseconds timeout);

  std::filesystem::path m_path;
  int m_fd = -1;
  std::vector<std::string> m_received;
  std::size_t m_seen = 0; // notifications already matched by wait_for
};

// `engram daemon` running on one store of a sandbox.
class DaemonProcess {
public:
  // Starts `engram [--config CONFIG] daemon --store STORE [--store MORE]...`
  // with `environment` added, and waits (at most 10 s) for READY=1; the test
  // fails with the daemon's log otherwise. Requests go to STORE's socket.
  DaemonProcess(const Sandbox& sandbox, const std::filesystem::path& store,
                const std::optional<std::filesystem::path>& config = std::nullopt,
                const Environment& environment = {},
                const std::vector<std::filesystem::path>& more_stores = {});
  // Kills the daemon if it still runs, and reaps it.
  ~DaemonProcess();
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  // The daemon's process id.
  pid_t pid() const { return m_pid; }

  // Sends `signal` to the daemon.
  void signal(int signal) const;

  // Waits for the daemon to exit; its exit status (128 + signal when killed),
  // or nullopt when it still runs after `timeout`.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout);

  // Waits for the daemon to stop itself at its pause point
  // (ENGRAM_TEST_PAUSE_AT); false when it has not after `timeout`.
  bool wait_stopped(std::chrono::milliseconds timeout);

  // Lets a daemon stopped at its pause point go on.
  void resume() const;

  // Sends SIGTERM and waits for the exit; the exit status, -1 when it hangs.
  int stop();

  // What the daemon logged so far.
  std::string log() const;

  // The notifications the daemon sent.
  NotifySocket& notifications() { return m_notify; }

  // Sends a control request over its socket (at most 10 s) and returns the reply.
  nlohmann::json ask(const nlohmann::json& request) const;

  // The daemon's status of its store (the `store` of a status reply).
  nlohmann::json store_status() const;

  // Waits until the daemon has nothing pending or running and has finished
  // more than `runs` consolidations; false after `timeout`.
  bool wait_idle_after(std::size_t runs, std::chrono::milliseconds timeout) const;

private:
  const Sandbox& m_sandbox;
  std::filesystem::path m_store;
  TempDir m_dir; // the notify socket and the daemon's output
  NotifySocket m_notify;
  pid_t m_pid = -1;
  bool m_reaped = false;
  std::size_t m_failures_before = 0; // failed assertions of the run when it started
};

// A store for the daemon to keep, and the configuration it runs with.
struct DaemonStore {
  std::filesystem::path store;
  std::filesystem::path config;
};

// `engram init --example` at `name` in the sandbox's work folder, and a
// configuration of `tables` (whole TOML tables) and a [daemon] table that
// settles quickly (settle_ms 100, max_wait_ms 1000), polls as often
// (poll_interval_ms 100, unless `daemon_keys` sets it), has the idle and daily
// triggers off, then `daemon_keys` (more lines of that table), and snapshots
// not coalesced (git.snapshot_interval_s 0).
DaemonStore daemon_store(const Sandbox& sandbox, const std::string& tables = "",
                         const std::string& daemon_keys = "", const std::string& name = "store");

// The configuration daemon_store writes, for rewriting it before a reload.
std::string daemon_config(const std::string& tables, const std::string& daemon_keys);

// HEAD's commit id in the store's repository; nullopt before the first commit.
std::optional<std::string> head_of(const std::filesystem::path& store);

// Today's local date (YYYY-MM-DD), as the daemon and `engram append` take it.
std::string local_today();

// Calls `condition` every `poll` until it holds; false when `timeout` (a
// deadline, so scaled by time_scale()) passes first. A condition that starts
// processes polls less often, so that on a loaded machine the polling does not
// starve the daemons it waits for.
bool wait_until(const std::function<bool()>& condition, std::chrono::milliseconds timeout,
                std::chrono::milliseconds poll = std::chrono::milliseconds(20));

// The subjects of the commits after `since` (exclusive; all when nullopt), oldest first.
std::vector<std::string> subjects_since(const Sandbox& sandbox, const std::filesystem::path& store,
                                        const std::optional<std::string>& since);

} // namespace engram::test
