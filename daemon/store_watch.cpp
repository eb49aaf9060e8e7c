// StoreWatch: sorting a store's events into triggers (its jobs are in
// store_watch_jobs.cpp, what it says of itself in store_watch_status.cpp).
#include "daemon/store_watch.hpp"
#include "daemon/sync_job.hpp"

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
  if (syncs(m_spec.settings)) {
    m_next_sync = now; // what the other machines learned while no daemon ran
  }
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
  if (!m_triggers.paused()) {
    consider(m_next_sync);
  }
  return earliest;
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
  if (!syncs(settings)) {
    m_next_sync.reset();
  } else if (!m_next_sync) {
    m_next_sync = now;
  }
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
