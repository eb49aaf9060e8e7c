// Sync jobs (see sync_job.hpp).
#include "daemon/sync_job.hpp"

#include "daemon/own_writes.hpp"
#include "engine/sync.hpp"

#include <algorithm>
#include <spdlog/spdlog.h>

namespace engram::daemon {
namespace {

// The first wait before reaching a remote again after a failed round.
constexpr std::chrono::seconds k_first_backoff{15};

} // namespace

bool syncs(const config::Settings& settings) {
  return settings.get_bool("git.sync") && !settings.get_string("git.remote").empty();
}

Clock::time_point next_sync(const config::Settings& settings, std::uint64_t failures,
                            Clock::time_point now) {
  const std::chrono::seconds interval{settings.get_int("git.sync_interval_s")};
  const std::chrono::seconds never = std::chrono::hours(24 * 365);
  if (failures == 0) {
    return now + (interval.count() > 0 ? interval : never);
  }
  const std::chrono::seconds backoff =
      k_first_backoff * (std::int64_t{1} << std::min<std::uint64_t>(failures - 1, 16));
  return now + (interval.count() > 0 ? std::min(backoff, interval) : backoff);
}

void sync_round(const Job& job, const std::vector<engine::RuleSlot>& rules, engine::Kept* kept,
                JobResult& result) {
  std::vector<std::string> regenerated;
  try {
    const auto synced = engine::sync(job.root, job.settings, job.today, [&] {
      const auto outcome = engine::consolidate(job.root, job.settings, rules, job.today,
                                               RunKind::lightweight, engine::DryRun::no, kept);
      regenerated = outcome.applied.written;
      regenerated.insert(regenerated.end(), outcome.applied.removed.begin(),
                         outcome.applied.removed.end());
    });
    std::vector<std::string> touched = regenerated;
    touched.insert(touched.end(), synced.touched.begin(), synced.touched.end());
    for (const auto& path : touched) {
      result.written[path] = file_hash(job.root / path);
      result.look_again.push_back(path);
    }
    result.sync_problem = synced.problem;
    if (!synced.merge.empty()) {
      spdlog::info("sync: {} from {} ({} merge actions)", synced.merge, synced.remote,
                   synced.record.size());
    }
    if (synced.pushed) {
      spdlog::info("sync: pushed to {}", synced.remote);
    }
  } catch (const std::exception& error) {
    result.sync_problem = error.what();
  }
  if (!result.sync_problem.empty()) {
    spdlog::warn("sync: {}", result.sync_problem);
  }
}

} // namespace engram::daemon
