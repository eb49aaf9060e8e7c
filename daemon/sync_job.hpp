// Sync jobs: the daemon's side of sharing a store through its remote. After a
// run that committed, and on a timer while the store is idle
// (git.sync_interval_s), the worker fetches, merges, makes the generated files
// again and pushes (engine/sync.hpp); a remote out of reach is tried again
// later, less often each time, and never stops the store's runs.
#pragma once

#include "config/config.hpp"
#include "daemon/job.hpp"
#include "engine/consolidation.hpp"

#include <chrono>
#include <vector>

namespace engram::daemon {

// Whether the store's settings share it: git.sync on and git.remote set.
bool syncs(const config::Settings& settings);

// When the next idle round is due after one that ended now, having failed
// `failures` times in a row: the interval, or sooner backoff steps while the
// remote is out of reach (never later than the interval).
Clock::time_point next_sync(const config::Settings& settings, std::uint64_t failures,
                            Clock::time_point now);

// One round for `job`: fetch, merge, the generated files made again with a
// lightweight run, push. What it wrote joins `result.written` (engram's own
// writes) and `result.look_again`; a problem is logged and kept in
// `result.sync_problem`, and the job still counts as done.
void sync_round(const Job& job, const std::vector<engine::RuleSlot>& rules, engine::Kept* kept,
                JobResult& result);

} // namespace engram::daemon
