// Daemon: `engram daemon`'s whole life. One thread runs the loop over the
// stores' watchers, their control sockets, signals and one timer; the worker
// thread runs consolidations. Built from injected parts (the consolidator,
// the watcher factory, the clocks), so a test drives it one step at a time.
#pragma once

#include "config/config.hpp"
#include "daemon/control_socket.hpp"
#include "daemon/event_loop.hpp"
#include "daemon/notify.hpp"
#include "daemon/signals.hpp"
#include "daemon/store_lock.hpp"
#include "daemon/store_watch.hpp"
#include "daemon/worker.hpp"

#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace engram::daemon {

// The clocks the daemon reads: steady time for deadlines, wall time for the
// daily run and dates. Replaced in tests.
struct Clocks {
  std::function<Clock::time_point()> now = [] { return Clock::now(); };
  std::function<std::time_t()> wall = [] { return std::time(nullptr); };
};

// Reloads the configuration (on SIGHUP or a `reload` request).
using ConfigLoader = std::function<Expected<config::Config, std::vector<std::string>>()>;

// Finishes what an interrupted run left in a store and commits the agent's
// changes made while no daemon watched (engine::recover); throws engram::Error.
using Recoverer = std::function<void(const StoreSpec& store)>;

// What the daemon is started with.
struct DaemonOptions {
  std::vector<StoreSpec> stores; // the stores to keep
  ConfigLoader load_config;      // re-reads the configuration; empty: reload does nothing
  Recoverer recover;             // run on each store before it is watched; empty: none
  bool log_level_fixed = false;  // --log-level was given: a reload keeps it
};

// The resident daemon over one or more stores.
class Daemon {
public:
  // Blocks the signals it handles and starts the worker; nothing is watched yet.
  Daemon(DaemonOptions options, Consolidator consolidator, WatcherFactory make_watcher,
         Clocks clocks = {});
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Takes each store's lock, opens its control socket and starts its watcher.
  // A store that cannot be kept is logged and left out; throws engram::Fatal
  // when none can be (the message names the daemon already keeping it).
  void start();

  // Tells the service manager start-up is done.
  void notify_ready();

  // One turn of the loop: waits at most `max_wait` (nullopt: until the next
  // deadline or event), handles what happened, starts due consolidations.
  // Returns false once the daemon has stopped and may exit.
  bool step(std::optional<std::chrono::milliseconds> max_wait);

  // Runs start(), then steps until stopped; returns the exit status.
  int run();

  // Stops as SIGTERM does: the running consolidation finishes, nothing new starts.
  void request_stop(const char* why);

  // Re-reads the configuration as SIGHUP does; returns the problems (empty: applied).
  std::vector<std::string> reload();

  // The stores kept, in order.
  const std::vector<std::unique_ptr<StoreWatch>>& stores() const { return m_stores; }

  // The socket of each store kept, in the same order.
  std::vector<std::filesystem::path> socket_paths() const;

private:
  // The resources of one kept store besides its StoreWatch.
  struct Kept {
    std::optional<StoreLock> lock;             // one daemon per store
    std::unique_ptr<ControlServer> server;     // its control socket
    std::vector<ConnectionId> request_waiters; // clients awaiting the store's next run
    std::set<ConnectionId> progress_wanted;    // of those, the ones that asked to see it go
    int watched_fd = -1;                       // its watcher descriptor registered with the loop
  };

  // Handles one control request on the socket of store `index`.
  void on_request(std::size_t index, ConnectionId connection, const nlohmann::json& request);
  // Handles the pending signals.
  void on_signals();
  // Takes finished jobs, tells their stores and waiting clients.
  void collect_results();
  // Sends each client watching a job the job's latest progress, if any came.
  void forward_progress();
  // Makes `job` report its progress when some of `waiters` (store `index`'s
  // clients awaiting it) asked to see it.
  void watch_progress(std::size_t index, Job& job, const std::vector<ConnectionId>& waiters);
  // Starts the jobs that are due.
  void start_due_jobs();
  // The earliest deadline of all stores and the watchdog.
  std::optional<Clock::time_point> next_deadline(Clock::time_point now, std::time_t wall) const;
  // Registers (or re-registers) a store's watcher descriptor with the loop.
  void watch_fd(std::size_t index);
  // Reads a store's watcher (readable, or `poll` when its interval came round);
  // a watcher that fails is replaced rather than taking the daemon down.
  void read_watcher(std::size_t index, bool poll);
  // Sends the service manager a STATUS= line when what the daemon does changed.
  void update_status();
  // The reply to a `status` request.
  nlohmann::json status_reply(std::size_t index) const;

  DaemonOptions m_options;
  WatcherFactory m_make_watcher;
  Clocks m_clocks;
  Signals m_signals; // before the worker: its thread inherits the blocked mask
  EventLoop m_loop;
  Notifier m_notifier;
  std::vector<std::unique_ptr<StoreWatch>> m_stores;
  std::vector<std::unique_ptr<Kept>> m_kept;                    // parallel to m_stores
  std::map<std::uint64_t, std::vector<ConnectionId>> m_waiters; // job id → clients awaiting it
  // A job whose progress some of its clients see: the store, the report, the clients.
  struct Watching {
    std::size_t store = 0;
    std::shared_ptr<JobProgress> progress;
    std::vector<ConnectionId> clients;
  };
  std::map<std::uint64_t, Watching> m_watching; // job id → what is watched of it
  std::uint64_t m_next_job = 1;
  bool m_stopping = false;
  std::optional<Clock::time_point> m_next_watchdog;
  std::unique_ptr<Worker> m_worker; // last: stopped and joined first
};

} // namespace engram::daemon
