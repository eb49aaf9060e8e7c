// StoreWatch: one store as the daemon keeps it — its watcher, its triggers,
// what engram wrote itself, and whether it waits for git or for its running
// consolidation. The loop feeds it events and the time; it answers with the
// next deadline and, when one is due, the job to run. It never blocks.
#pragma once

#include "config/config.hpp"
#include "daemon/job.hpp"
#include "daemon/own_writes.hpp"
#include "daemon/triggers.hpp"
#include "store/layout.hpp"
#include "watch/watcher.hpp"

#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace engram::daemon {

// Makes the watcher of a store (watch::make_watcher, or a fake in tests).
using WatcherFactory = std::function<std::unique_ptr<watch::Watcher>(
    const std::filesystem::path& root, const watch::WatchOptions& options)>;

// A store the daemon keeps: where it is, what it is called, its settings.
struct StoreSpec {
  std::filesystem::path root;
  std::string name;          // for log lines and status: `[[store]] name`, else the folder's name
  config::Settings settings; // its effective settings
};

// The watcher options a store's settings ask for.
watch::WatchOptions watch_options(const config::Settings& settings);

// The daemon's state for one store.
// Where a store's next run stands: each state holds what it needs, so none
// is inferred from which fields happen to be set.
namespace run_state {
// Nothing running or held back.
struct Idle {};
// A job is on the worker.
struct Running {
  Due due;
};
// A run held back while a git operation is in progress in the store.
struct WaitingForGit {
  Due due;
  std::string reason;                // what git is doing
  Clock::time_point retry;           // when to look at git again
  std::chrono::milliseconds backoff; // the wait before that look, doubled each time
};
// An automatic run held back until the snapshot interval has passed.
struct Coalescing {
  Due due;
  Clock::time_point until;
};
// The store's folder was found gone when a run was due (and that was said).
struct Missing {};
} // namespace run_state

using RunState = std::variant<run_state::Idle, run_state::Running, run_state::WaitingForGit,
                              run_state::Coalescing, run_state::Missing>;

// A failed run, to be run again.
struct Retry {
  Due due;
  Clock::time_point at;
};

class StoreWatch {
public:
  // Nothing is watched until start().
  StoreWatch(StoreSpec spec, std::time_t wall);

  // Makes the watcher (its first scan), then notes what happened while no
  // daemon ran: uncommitted agent changes, a guard exceeded, an append's request.
  void start(const WatcherFactory& make_watcher, Clock::time_point now);

  // The watcher's descriptor to wait on, or -1 when it must be polled.
  int watcher_fd() const;

  // Reads the watcher's pending changes and sorts them: engram's own writes
  // are dropped, git's files make a waiting store look at git again, and the
  // rest are the agent's changes, noted with the triggers.
  void read_changes(Clock::time_point now);

  // Reads the watcher when its polling interval has come round.
  void poll(Clock::time_point now);

  // Replaces a watcher that failed with a new one and rescans; false when no
  // new one can be made (the store is then not watched until a reload).
  bool restart_watcher(const WatcherFactory& make_watcher, Clock::time_point now);

  // When this store next needs the loop: a trigger, a poll, a git re-check.
  std::optional<Clock::time_point> deadline(Clock::time_point now, std::time_t wall) const;

  // The consolidation due now, when the store is free and git is not busy;
  // the store is busy from then until finished().
  std::optional<Job> take_job(Clock::time_point now, std::time_t wall, std::uint64_t id);

  // Takes the result of this store's job: remembers its writes as engram's
  // own and sorts the events held while it ran.
  void finished(const JobResult& result, Clock::time_point now, std::time_t wall);

  // Asks for a run of `kind` (control socket); `today` overrides the date.
  void request(RunKind kind, std::optional<Date> today);

  // Stops or restarts automatic runs; explicit requests still run.
  void set_paused(bool paused, std::time_t wall);

  // Applies new settings; remakes the watcher when its options changed.
  void reconfigure(const config::Settings& settings, const WatcherFactory& make_watcher,
                   Clock::time_point now, std::time_t wall);

  // The daemon's view of this store, for `engram status`.
  nlohmann::json status(Clock::time_point now, std::time_t wall) const;

  // One line for the service manager's STATUS=.
  std::string activity() const;

  // The store's folder.
  const std::filesystem::path& root() const { return m_spec.root; }
  // The store's name in log lines.
  const std::string& name() const { return m_spec.name; }
  // The settings in force.
  const config::Settings& settings() const { return m_spec.settings; }
  // True from take_job() until finished().
  bool busy() const { return std::holds_alternative<run_state::Running>(m_state); }
  // True while automatic runs are paused.
  bool paused() const { return m_triggers.paused(); }

private:
  // Sorts one change event, counting the agent's changes in `agent`.
  void sort_change(const watch::Change& change, Clock::time_point now, std::size_t& agent);
  // Looks at a guarded file that changed and asks for a full run when it is over its guard.
  void check_guard(const std::string& relative);
  // True when the append's request marker is in the state folder.
  bool marker_present() const;
  // Asks for a full run when an append's marker came during the last run
  // and no run is due now to take it.
  void serve_late_marker(Clock::time_point now, std::time_t wall);
  // Asks for a run soon when the last one left the index behind HEAD.
  void catch_up_index_soon(Clock::time_point now);
  // True while the store's folder is where it was configured (not removed,
  // renamed away or unmounted).
  bool folder_present() const;
  // What is due now, with a run held back for git or for the snapshot
  // interval joining it (the fuller run wins).
  std::optional<Due> take_due(Clock::time_point now, std::time_t wall);
  // True when the store's folder is there. When it is not, what was due is
  // dropped and its going said once; its coming back is said too.
  bool folder_still_there();
  // Holds `due` back while a git operation is in progress in the store (looking
  // again later, less often each time); true when it was held.
  bool wait_for_git(const Due& due, Clock::time_point now);
  // The job of `due`, now running; `marker` says it consumes the request marker.
  Job start_job(const Due& due, std::time_t wall, std::uint64_t id, bool marker);
  // The job that lets go of what is kept of the store, when it is time
  // (daemon.release_after_s since the last run) and no run is waiting.
  std::optional<Job> release_job(Clock::time_point now, std::uint64_t id);
  // Looks at the files runs replaced while a writer still holds them open
  // (engine/replaced_files.hpp): one that grew is an agent's change.
  void look_at_replaced(Clock::time_point now);
  // The idle sync round, when it is due and the store and git are free.
  std::optional<Job> sync_job(Clock::time_point now, std::time_t wall, std::uint64_t id);
  // Sorts the events held while a job ran, as read_changes would have.
  void sort_held(Clock::time_point now);
  // Notes a sync round's outcome: when the next one is due; a sync job's
  // result is taken whole here.
  void synced(const JobResult& result, Clock::time_point now);
  // Holds back an automatic lightweight run until the snapshot interval since
  // the last snapshot has passed; true when it was held.
  bool coalesce(const Due& due, Clock::time_point now);

  StoreSpec m_spec;
  store::Layout m_layout;
  std::unique_ptr<watch::Watcher> m_watcher;
  watch::WatchOptions m_watch_options;
  std::optional<Clock::time_point> m_next_poll; // only for a watcher that must be polled
  Triggers m_triggers;
  OwnWrites m_own;
  std::set<std::string> m_notices;   // a rule's notes on the store, each logged once
  RunState m_state;                  // what the next run is doing or waiting for
  std::vector<watch::Change> m_held; // events seen while a run ran
  // What changed since the last job was taken, for the next one's
  // Job::changed; nullopt when it is not known (see there).
  std::optional<std::set<std::string>> m_changed;
  std::optional<Clock::time_point> m_last_snapshot; // when the agent's changes were last committed
  std::optional<Date> m_request_today;              // --now of a pending request
  std::uint64_t m_failures = 0;                     // consecutive failed runs
  std::optional<Retry> m_retry;                     // re-run after a failure
  std::uint64_t m_index_tries = 0;                  // runs in a row that left the index behind
  std::uint64_t m_runs = 0;                         // consolidations finished
  std::optional<JobResult> m_last;                  // the last one
  std::time_t m_last_at = 0;                        // when it finished (wall)
  // When what is kept of the store since its last run is let go, with no
  // run before then (daemon.release_after_s); nullopt: nothing is kept.
  // A release job runs on the worker before any job taken after it, and
  // changes nothing in the store: the store is not busy while it runs.
  std::optional<Clock::time_point> m_release_at;
  // When to look again at replaced files a writer may still append to;
  // nullopt while none is kept.
  std::optional<Clock::time_point> m_replaced_look;
  // When the next idle sync round is due; nullopt when the store is not shared.
  std::optional<Clock::time_point> m_next_sync;
  std::uint64_t m_sync_failures = 0; // rounds in a row that stopped short
};

} // namespace engram::daemon
