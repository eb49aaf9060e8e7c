// StoreWatch: sorting a store's events and turning its triggers into jobs.
#include "daemon/store_watch.hpp"

#include "daemon/git_activity.hpp"
#include "daemon/log.hpp"
#include "engine/consolidation.hpp"
#include "engine/guards.hpp"
#include "engine/replaced_files.hpp"
#include "engine/snapshot.hpp"
#include "git/repository.hpp"

#include <algorithm>
#include <fstream>
#include <spdlog/spdlog.h>
#include <sstream>

namespace engram::daemon {

namespace fs = std::filesystem;

namespace {

// The first wait before looking at git again, and the longest.
constexpr std::chrono::milliseconds k_git_backoff_first{250};
constexpr std::chrono::milliseconds k_git_backoff_max{5000};
// Failed runs are retried after 2, 4, 8, ... seconds, this many times.
constexpr std::uint64_t k_max_retries = 6;

// A file's bytes; nullopt when it cannot be read.
std::optional<std::string> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The local date of a wall-clock time.
Date local_date(std::time_t wall) {
  std::tm local{};
  localtime_r(&wall, &local);
  return Date(local.tm_year + 1900, static_cast<unsigned>(local.tm_mon + 1),
              static_cast<unsigned>(local.tm_mday));
}

} // namespace

watch::WatchOptions watch_options(const config::Settings& settings) {
  watch::WatchOptions options;
  options.backend = settings.get_string("daemon.watcher");
  options.poll_interval_ms = static_cast<int>(settings.get_int("daemon.poll_interval_ms"));
  options.state_dir = settings.get_string("layout.state");
  return options;
}

StoreWatch::StoreWatch(StoreSpec spec, std::time_t wall)
    : m_spec(std::move(spec)), m_layout(engine::layout_from(m_spec.settings, m_spec.root)),
      m_watch_options(watch_options(m_spec.settings)),
      m_triggers(TriggerSettings::from(m_spec.settings), wall) {}

void StoreWatch::start(const WatcherFactory& make_watcher, Clock::time_point now) {
  const StoreLogScope scope(m_spec.name);
  m_watcher = make_watcher(m_spec.root, m_watch_options);
  const auto interval = m_watcher->poll_interval();
  m_next_poll = interval.count() >= 0 ? std::optional(now + interval) : std::nullopt;
  spdlog::info("watching {} ({} watcher)", m_spec.root.string(), m_watcher->name());

  // What the agent did while no daemon watched is settled at once like any change.
  try {
    auto repository = git::Repository::open(m_spec.root);
    if (repository && !repository->is_clean()) {
      spdlog::info("uncommitted changes found at start");
      m_triggers.changes(now, 1);
    } else if (repository) {
      // Clean, and watched since before it was found so: from here on the
      // watcher knows every change (the scan still reads the whole store
      // once, having read nothing yet).
      m_changed.emplace();
    }
  } catch (const std::exception& error) {
    spdlog::warn("cannot read git status: {}", error.what());
  }
  check_guard(m_layout.working);
  check_guard(m_layout.memory_index);
  if (marker_present()) {
    m_triggers.request(RunKind::full, Reason::marker);
  }
  if (engine::replaced_kept(m_spec.root, m_layout)) {
    m_replaced_look = now; // files replaced before this daemon, a writer may still hold
  }
}

int StoreWatch::watcher_fd() const {
  return m_watcher ? m_watcher->fd() : -1;
}

void StoreWatch::read_changes(Clock::time_point now) {
  if (!m_watcher) {
    return;
  }
  const StoreLogScope scope(m_spec.name);
  std::vector<watch::Change> changes;
  m_watcher->read_changes(changes);
  if (busy()) {
    // Whether these are engram's own writes is known only when the run is done.
    m_held.insert(m_held.end(), changes.begin(), changes.end());
    return;
  }
  std::size_t agent = 0;
  for (const auto& change : changes) {
    sort_change(change, now, agent);
  }
  m_triggers.changes(now, agent);
}

void StoreWatch::poll(Clock::time_point now) {
  if (!m_watcher) {
    return;
  }
  look_at_replaced(now);
  if (m_next_poll && now >= *m_next_poll) {
    read_changes(now);
  }
  // The interval can appear (inotify ran out of watches) or go at any read.
  const auto interval = m_watcher->poll_interval();
  if (interval.count() < 0) {
    m_next_poll.reset();
  } else if (!m_next_poll || now >= *m_next_poll) {
    m_next_poll = now + interval;
  }
}

void StoreWatch::look_at_replaced(Clock::time_point now) {
  if (!m_replaced_look || now < *m_replaced_look || busy()) {
    return;
  }
  // No watcher sees the state folder, where they are kept; a stat of each
  // every second costs nothing beside a writer that keeps a file open.
  constexpr auto k_every = std::chrono::seconds(1);
  const StoreLogScope scope(m_spec.name);
  if (engine::replaced_grew(m_spec.root, m_layout)) {
    spdlog::debug("a replaced file a writer holds open grew; its lines are carried over");
    m_triggers.changes(now, 1);
  }
  m_replaced_look.reset();
  if (engine::replaced_kept(m_spec.root, m_layout)) {
    m_replaced_look = now + k_every;
  }
}

bool StoreWatch::restart_watcher(const WatcherFactory& make_watcher, Clock::time_point now) {
  const StoreLogScope scope(m_spec.name);
  m_watcher.reset();
  m_next_poll.reset();
  try {
    m_watcher = make_watcher(m_spec.root, m_watch_options);
  } catch (const std::exception& error) {
    spdlog::error("cannot watch the store again ({}); `engram reload` tries once more",
                  error.what());
    return false;
  }
  poll(now);
  m_changed.reset();
  m_triggers.changes(now, 1); // whatever happened while it was broken
  spdlog::warn("watching again ({} watcher); the whole store is rescanned", m_watcher->name());
  return true;
}

void StoreWatch::sort_change(const watch::Change& change, Clock::time_point now,
                             std::size_t& agent) {
  if (change.kind == watch::ChangeKind::rescan) {
    spdlog::info("the watcher lost track of events; rescanning the whole store");
    m_changed.reset();
    ++agent;
    for (const auto& path : engine::guarded_paths(m_layout)) {
      check_guard(path);
    }
    return;
  }
  if (is_git_path(change.path)) {
    if (auto* waiting = std::get_if<run_state::WaitingForGit>(&m_state)) {
      waiting->retry = now; // index.lock or MERGE_HEAD moved: look again now
    }
    return;
  }
  const std::string relative = change.path.generic_string();
  if (m_own.explains(m_spec.root, relative)) {
    spdlog::trace("{}: engram's own write", relative);
    return;
  }
  spdlog::debug("{} {}", relative,
                change.kind == watch::ChangeKind::removed ? "removed" : "changed");
  if (m_changed) {
    m_changed->insert(relative);
  }
  ++agent;
  const auto guarded = engine::guarded_paths(m_layout);
  if (std::find(guarded.begin(), guarded.end(), relative) != guarded.end()) {
    check_guard(relative);
  }
}

void StoreWatch::check_guard(const std::string& relative) {
  const auto bytes = read_bytes(m_spec.root / relative);
  if (!bytes) {
    return;
  }
  for (const auto& reading : engine::read_guards(relative, bytes, m_layout, m_spec.settings)) {
    if (reading.over()) {
      spdlog::info("{} is over its guard ({} > {} {}): full consolidation", relative, reading.size,
                   reading.limit, reading.unit);
      m_triggers.guard_exceeded();
      return;
    }
  }
}

bool StoreWatch::folder_present() const {
  std::error_code error;
  return fs::is_directory(git::Repository::gitdir_of(m_spec.root), error);
}

bool StoreWatch::marker_present() const {
  std::error_code error;
  return fs::exists(m_spec.root / m_layout.state / k_request_marker, error);
}

std::optional<Clock::time_point> StoreWatch::deadline(Clock::time_point now,
                                                      std::time_t wall) const {
  std::optional<Clock::time_point> earliest = m_next_poll;
  const auto consider = [&](std::optional<Clock::time_point> at) {
    if (at && (!earliest || *at < *earliest)) {
      earliest = at;
    }
  };
  if (busy()) {
    return earliest; // triggers wait for the run's result
  }
  if (const auto* waiting = std::get_if<run_state::WaitingForGit>(&m_state)) {
    // Everything else due joins the waiting run once git is done.
    consider(waiting->retry);
    return earliest;
  }
  consider(m_triggers.deadline(now, wall));
  if (m_retry) {
    consider(m_retry->at);
  }
  if (const auto* held = std::get_if<run_state::Coalescing>(&m_state);
      held != nullptr && !m_triggers.paused()) {
    consider(held->until);
  }
  consider(m_release_at);
  consider(m_replaced_look);
  return earliest;
}

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
  std::vector<watch::Change> held;
  held.swap(m_held);
  std::size_t agent = 0;
  for (const auto& change : held) {
    sort_change(change, now, agent);
  }
  m_triggers.changes(now, agent);
}

void StoreWatch::request(RunKind kind, std::optional<Date> today) {
  m_triggers.request(kind, Reason::request);
  if (today) {
    m_request_today = today;
  }
}

void StoreWatch::set_paused(bool paused, std::time_t wall) {
  const StoreLogScope scope(m_spec.name);
  if (paused != m_triggers.paused()) {
    spdlog::info(paused ? "paused: changes are noted, nothing runs until resumed" : "resumed");
  }
  m_triggers.set_paused(paused, wall);
}

void StoreWatch::reconfigure(const config::Settings& settings, const WatcherFactory& make_watcher,
                             Clock::time_point now, std::time_t wall) {
  const StoreLogScope scope(m_spec.name);
  m_spec.settings = settings;
  m_layout = engine::layout_from(settings, m_spec.root);
  m_triggers.reconfigure(TriggerSettings::from(settings), wall);
  m_changed.reset(); // the next run reads the store under the new settings
  const auto options = watch_options(settings);
  if (!m_watcher || options.backend != m_watch_options.backend ||
      options.poll_interval_ms != m_watch_options.poll_interval_ms ||
      options.state_dir != m_watch_options.state_dir) {
    try {
      auto watcher = make_watcher(m_spec.root, options);
      m_watcher = std::move(watcher);
      m_watch_options = options;
      m_next_poll.reset();
      poll(now);
      m_changed.reset();
      m_triggers.changes(now, 1); // whatever the old watcher did not report
      spdlog::info("now watching with the {} watcher", m_watcher->name());
    } catch (const std::exception& error) {
      spdlog::error("cannot switch watchers ({}); keeping the {} watcher", error.what(),
                    m_watcher ? std::string(m_watcher->name()) : std::string("old"));
    }
  }
  const auto& trig = m_triggers.settings();
  spdlog::info("settings reloaded: settle {} ms, max wait {} ms", trig.settle.count(),
               trig.max_wait.count());
}

} // namespace engram::daemon
