// Job: one consolidation the daemon hands to its worker thread, and what came
// of it. The loop builds a Job from a store's triggers; the worker runs it
// through a Consolidator (the real engine, or a fake in tests) and returns a
// JobResult that tells the loop which writes were engram's own.
#pragma once

#include "config/config.hpp"
#include "daemon/job_progress.hpp"
#include "daemon/own_writes.hpp"
#include "daemon/triggers.hpp"
#include "engine/engine.hpp"
#include "engram/date.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace engram::daemon {

// One consolidation to run.
struct Job {
  std::uint64_t id = 0;       // unique for the daemon's life
  std::size_t store = 0;      // the store's index in the daemon
  std::string name;           // the store's name, for log lines
  std::filesystem::path root; // the store's folder
  config::Settings settings;  // its settings when the job was made
  RunKind kind = RunKind::lightweight;
  Reason reason = Reason::changes;
  Date today{1970, 1, 1};      // the date the rules run as
  bool consume_marker = false; // remove the append's request marker before reading
  // The store-relative paths that changed since the store's last job (the
  // agent's, and what that job said to look at again); nullopt when that is
  // not known — the first run, a watcher that lost track, a failed run, a
  // full run — and the whole store is looked at.
  std::optional<std::vector<std::string>> changed;
  // Not a consolidation: the consolidator lets go of what it keeps of the
  // store between runs (daemon.release_after_s), and the next job reads the
  // store again. Nothing is read or written.
  bool release = false;
  // Not a consolidation: one sync round with the store's remote, due on the
  // idle timer (git.sync_interval_s).
  bool sync_only = false;
  // Told how far the run has got, when a client waits to see it; else null.
  std::shared_ptr<JobProgress> progress;
};

// What a consolidation did, as the loop and the control socket need it.
struct JobResult {
  std::uint64_t id = 0;
  std::size_t store = 0;
  RunKind kind = RunKind::lightweight;
  Reason reason = Reason::changes;
  bool ok = false;
  std::string error;                 // why it failed, when it did
  std::string summary;               // the commit's summary line, or "nothing to consolidate"
  std::string record_text;           // one line per action
  nlohmann::json record;             // engine::record_json, with what was applied
  std::optional<std::string> commit; // the consolidation's commit
  std::optional<std::string> snapshot_commit; // the agent's changes, committed first
  WrittenFiles written;                       // engram's own writes and removals
  std::vector<std::string> look_again;        // for the next job's `changed`
  bool released = false;                      // a release job's result: nothing ran
  bool synced = false;                        // a sync round ran (see sync_job.hpp)
  std::string sync_problem;                   // why it stopped short; empty when it did not
  std::chrono::microseconds took{0};          // how long it ran

  // `took` in whole milliseconds, as replies and status report it.
  [[nodiscard]] std::int64_t took_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(took).count();
  }
};

// Runs one job to its end; never throws (a failure is a JobResult with ok false).
using Consolidator = std::function<JobResult(const Job&)>;

// The name of the marker `engram append` leaves in the state folder to ask for a full run.
inline constexpr const char* k_request_marker = "consolidate-requested";

// The consolidator the daemon uses: engine::consolidate with `rules` (owned
// by the caller's plugin host, which must outlive every job).
Consolidator engine_consolidator(std::vector<engine::RuleSlot> rules);

} // namespace engram::daemon
