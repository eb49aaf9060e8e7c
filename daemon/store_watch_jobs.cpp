// StoreWatch's jobs: taking the run its triggers call for once git is idle
// and the store is there, and what the worker's outcome does to the triggers.
#include "daemon/git_activity.hpp"
#include "daemon/log.hpp"
#include "daemon/store_watch.hpp"
#include "daemon/sync_job.hpp"
#include "engine/consolidation.hpp"
#include "engine/replaced_files.hpp"
#include "git/repository.hpp"

#include <algorithm>
#include <spdlog/spdlog.h>

namespace engram::daemon {

namespace fs = std::filesystem;

namespace {

// The first wait before looking at git again, and the longest.
constexpr std::chrono::milliseconds k_git_backoff_first{250};
constexpr std::chrono::milliseconds k_git_backoff_max{5000};
// Failed runs are retried after 2, 4, 8, ... seconds, this many times.
constexpr std::uint64_t k_max_retries = 6;
// Runs in a row that try to bring an index left behind HEAD up to it.
constexpr std::uint64_t k_max_index_tries = 3;

// The local date of a wall-clock time.
Date local_date(std::time_t wall) {
  std::tm local{};
  localtime_r(&wall, &local);
  return Date(local.tm_year + 1900, static_cast<unsigned>(local.tm_mon + 1),
              static_cast<unsigned>(local.tm_mday));
}

} // namespace

std::optional<Job> StoreWatch::take_job(Clock::time_point now, std::time_t wall, std::uint64_t id) {
  if (busy()) {
    return std::nullopt;
  }
  const StoreLogScope scope(m_spec.name);
  if (m_retry && now >= m_retry->at) {
    m_triggers.request(m_retry->due.kind, m_retry->due.reason);
    m_retry.reset();
  }
  if (const auto* waiting = std::get_if<run_state::WaitingForGit>(&m_state);
      waiting != nullptr && now < waiting->retry) {
    return std::nullopt;
  }
  std::optional<Due> due = take_due(now, wall);
  if (!due) {
    if (auto job = sync_job(now, wall, id)) {
      return job;
    }
    return release_job(now, id);
  }
  if (!folder_still_there()) {
    return std::nullopt;
  }
  const bool marker = marker_present();
  if (marker && due->kind != RunKind::full) {
    due = Due{RunKind::full, Reason::marker};
  }
  if (coalesce(*due, now)) {
    return std::nullopt;
  }
  if (wait_for_git(*due, now)) {
    return std::nullopt;
  }
  return start_job(*due, wall, id, marker);
}

std::optional<Due> StoreWatch::take_due(Clock::time_point now, std::time_t wall) {
  std::optional<Due> due = m_triggers.take(now, wall);
  // A run held back (for git, or to coalesce snapshots) joins what is due now.
  std::optional<Due> held;
  if (const auto* waiting = std::get_if<run_state::WaitingForGit>(&m_state)) {
    held = waiting->due;
  } else if (const auto* coalescing = std::get_if<run_state::Coalescing>(&m_state);
             coalescing != nullptr && !m_triggers.paused()) { // paused: it waits for resume
    held = coalescing->due;
  }
  if (held && (!due || (held->kind == RunKind::full && due->kind != RunKind::full))) {
    due = held;
  }
  return due;
}

bool StoreWatch::folder_still_there() {
  if (!folder_present()) {
    // What was due is dropped, not kept due (the loop would spin on it): a
    // change once the folder is back starts the next run.
    if (!std::holds_alternative<run_state::Missing>(m_state)) {
      spdlog::error("{}: the store's folder is gone (removed, renamed or unmounted); nothing runs "
                    "for it until it is back, and the other stores go on",
                    m_spec.root.string());
    }
    m_state = run_state::Missing{};
    m_retry.reset();
    return false;
  }
  if (std::holds_alternative<run_state::Missing>(m_state)) {
    spdlog::info("{}: the store's folder is back", m_spec.root.string());
    m_state = run_state::Idle{};
  }
  return true;
}

bool StoreWatch::wait_for_git(const Due& due, Clock::time_point now) {
  const auto* waiting = std::get_if<run_state::WaitingForGit>(&m_state);
  if (auto busy_git = git_operation_in_progress(m_spec.root)) {
    if (waiting == nullptr || waiting->reason != *busy_git) {
      spdlog::info("waiting: {}", *busy_git);
    }
    const auto backoff = waiting == nullptr ? k_git_backoff_first
                                            : std::min(waiting->backoff * 2, k_git_backoff_max);
    m_state = run_state::WaitingForGit{due, *busy_git, now + backoff, backoff};
    return true;
  }
  if (waiting != nullptr) {
    spdlog::info("git is done; going on");
  }
  m_state = run_state::Idle{};
  return false;
}

Job StoreWatch::start_job(const Due& due, std::time_t wall, std::uint64_t id, bool marker) {
  Job job;
  job.id = id;
  job.name = m_spec.name;
  job.root = m_spec.root;
  job.settings = m_spec.settings;
  job.kind = due.kind;
  job.reason = due.reason;
  job.today = m_request_today.value_or(local_date(wall));
  job.consume_marker = marker;
  // A full run looks at the whole store: what the watcher may have missed
  // (a change it could not see) is found there at the latest.
  if (m_changed && due.kind == RunKind::lightweight) {
    job.changed.emplace(m_changed->begin(), m_changed->end());
  }
  m_changed.emplace();
  m_request_today.reset();
  m_state = run_state::Running{due};
  spdlog::info("consolidating ({}: {})", kind_name(due.kind), reason_name(due.reason));
  return job;
}

std::optional<Job> StoreWatch::release_job(Clock::time_point now, std::uint64_t id) {
  if (!m_release_at || now < *m_release_at || !std::holds_alternative<run_state::Idle>(m_state) ||
      m_retry) {
    return std::nullopt; // nothing kept, not yet, or a run is still to come
  }
  m_release_at.reset();
  Job job;
  job.id = id;
  job.name = m_spec.name;
  job.root = m_spec.root;
  job.settings = m_spec.settings;
  job.release = true;
  spdlog::debug("no run for {} s: letting go of what is kept of the store",
                m_spec.settings.get_int("daemon.release_after_s"));
  return job;
}

std::optional<Job> StoreWatch::sync_job(Clock::time_point now, std::time_t wall, std::uint64_t id) {
  if (!m_next_sync || now < *m_next_sync || m_triggers.paused() ||
      !std::holds_alternative<run_state::Idle>(m_state) || m_retry) {
    return std::nullopt;
  }
  if (!folder_present() || git_operation_in_progress(m_spec.root)) {
    m_next_sync = now + std::chrono::seconds(1); // looked at again soon, not spun on
    return std::nullopt;
  }
  Job job;
  job.id = id;
  job.name = m_spec.name;
  job.root = m_spec.root;
  job.settings = m_spec.settings;
  job.reason = Reason::sync;
  job.today = local_date(wall);
  job.sync_only = true;
  m_state = run_state::Running{Due{RunKind::lightweight, Reason::sync}};
  spdlog::debug("syncing with {}", m_spec.settings.get_string("git.remote"));
  return job;
}

void StoreWatch::synced(const JobResult& result, Clock::time_point now) {
  if (result.synced && syncs(m_spec.settings)) {
    m_sync_failures = result.sync_problem.empty() ? 0 : m_sync_failures + 1;
    m_next_sync = next_sync(m_spec.settings, m_sync_failures, now);
  }
  if (result.reason == Reason::sync) {
    // Its writes are engram's own, and the next run reads what it merged.
    m_state = run_state::Idle{};
    m_own.remember(result.written);
    if (m_changed) {
      m_changed->insert(result.look_again.begin(), result.look_again.end());
    }
    sort_held(now);
  }
}

bool StoreWatch::coalesce(const Due& due, Clock::time_point now) {
  // Only the automatic lightweight runs wait: a guard, a request or a full run
  // must not, and each commits the agent's changes first anyway.
  const bool automatic = due.kind == RunKind::lightweight &&
                         (due.reason == Reason::changes || due.reason == Reason::writes);
  if (!automatic || engine::snapshot_due(m_last_snapshot, now, m_spec.settings)) {
    return false;
  }
  if (!std::holds_alternative<run_state::Coalescing>(m_state)) {
    spdlog::debug("changes wait for the snapshot interval (git.snapshot_interval_s)");
  }
  m_state = run_state::Coalescing{
      due,
      *m_last_snapshot + std::chrono::seconds(m_spec.settings.get_int("git.snapshot_interval_s"))};
  return true;
}

void StoreWatch::finished(const JobResult& result, Clock::time_point now, std::time_t wall) {
  const StoreLogScope scope(m_spec.name);
  if (result.released) {
    return; // nothing ran: no writes, no held events (the store was not busy)
  }
  synced(result, now);
  if (result.reason == Reason::sync) {
    return; // a sync round alone: no run to count (see synced)
  }
  // What the engine keeps of the store from this run is let go if no other
  // run comes first (a failed run may have kept some of it too).
  const auto release_after = m_spec.settings.get_int("daemon.release_after_s");
  if (release_after > 0) {
    m_release_at = now + std::chrono::seconds(release_after);
  } else {
    m_release_at.reset();
  }
  m_state = run_state::Idle{};
  ++m_runs;
  m_last = result;
  m_last_at = wall;
  if (result.ok) {
    m_failures = 0;
    m_retry.reset();
    m_own.remember(result.written);
    if (engine::replaced_kept(m_spec.root, m_layout)) {
      m_replaced_look = now; // looked at as soon as the loop comes round
    }
    if (m_changed) {
      m_changed->insert(result.look_again.begin(), result.look_again.end());
    }
    if (result.snapshot_commit) {
      m_last_snapshot = now;
    }
    std::string commits;
    if (result.snapshot_commit) {
      commits +=
          fmt::format("; agent's changes committed as {}", result.snapshot_commit->substr(0, 12));
    }
    if (result.commit) {
      commits += fmt::format("; committed {}", result.commit->substr(0, 12));
    }
    // Tenths of a millisecond: a one-file run on a small store takes two.
    spdlog::info("{} ({:.1f} ms){}", result.summary,
                 std::chrono::duration<double, std::milli>(result.took).count(), commits);
    // A rule's note on the whole store (a "skipped" action naming no file):
    // logged once, whether or not its run had anything to commit.
    const auto actions = result.record.is_object()
                             ? result.record.value("actions", nlohmann::json::array())
                             : nlohmann::json::array();
    for (const auto& action : actions) {
      if (action.is_object() && action.value("action", "") == "skipped" &&
          action.value("source", "").empty() && action.value("target", "").empty()) {
        auto note =
            fmt::format("rule {}: {}", action.value("rule", ""), action.value("reason", ""));
        if (m_notices.insert(note).second) {
          spdlog::info("{}", note);
        }
      }
    }
  } else {
    m_changed.reset(); // what it did before it failed is not known
    ++m_failures;
    if (m_failures <= k_max_retries) {
      const auto wait = std::chrono::seconds(1LL << m_failures);
      spdlog::error("consolidation failed: {}; retrying in {} s", result.error, wait.count());
      m_retry = Retry{Due{result.kind, result.reason}, now + wait};
    } else {
      spdlog::error("consolidation failed: {}; no more retries until the next change",
                    result.error);
    }
  }
  sort_held(now);
  if (result.ok) {
    catch_up_index_soon(now);
    serve_late_marker(now, wall);
  }
}

void StoreWatch::catch_up_index_soon(Clock::time_point now) {
  // A git command of the user's or an agent's (`git status` writes the
  // index too) held index.lock as the run's commit landed: HEAD moved, the
  // index's file did not, and `git status` shows the store as changed. The
  // next run brings the index up to HEAD once git is done; it comes soon, not
  // at the next change, a few times at most: an index that cannot be written
  // at all waits for the next change.
  if (!git::Repository::index_behind(m_spec.root)) {
    m_index_tries = 0;
    return;
  }
  if (m_index_tries >= k_max_index_tries) {
    spdlog::warn("the index is still behind HEAD after {} runs; the next change's run writes it",
                 m_index_tries);
    m_index_tries = 0;
    return;
  }
  ++m_index_tries;
  const auto wait = k_git_backoff_first * static_cast<long>(m_index_tries);
  spdlog::info("the index was left behind HEAD; a run in {} ms brings it up", wait.count());
  m_retry = Retry{Due{RunKind::lightweight, Reason::index}, now + wait};
}

void StoreWatch::serve_late_marker(Clock::time_point now, std::time_t wall) {
  // An append asked while the run worked, after it had looked for the
  // marker: no watched file tells of it. A run due now anyway takes it.
  const auto due = m_triggers.deadline(now, wall);
  if ((!due || *due > now) && marker_present()) {
    m_triggers.request(RunKind::full, Reason::marker);
  }
}

void StoreWatch::sort_held(Clock::time_point now) {
  std::vector<watch::Change> held;
  held.swap(m_held);
  std::size_t agent = 0;
  for (const auto& change : held) {
    sort_change(change, now, agent);
  }
  m_triggers.changes(now, agent);
}

} // namespace engram::daemon
