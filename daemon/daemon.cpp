// Daemon: start-up, the loop's turns, results, signals and shutdown. The
// control requests are in requests.cpp.
#include "daemon/daemon.hpp"

#include "base/error.hpp"
#include "base/heap.hpp"
#include "daemon/log.hpp"
#include "daemon/memory.hpp"
#include "engine/consolidation.hpp"
#include "git/repository.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace engram::daemon {

Daemon::Daemon(DaemonOptions options, Consolidator consolidator, WatcherFactory make_watcher,
               Clocks clocks)
    : m_options(std::move(options)), m_make_watcher(std::move(make_watcher)),
      m_clocks(std::move(clocks)) {
  heap_gives_back_at_once(); // a daemon lives for days; what it frees goes back
  m_worker = std::make_unique<Worker>(std::move(consolidator), [this] { m_loop.wake(); });
  m_loop.add(m_signals.fd(), [this](std::uint32_t) { on_signals(); });
}

Daemon::~Daemon() {
  // The worker goes first: a job still running finishes before the stores it
  // reports to, and the plugin rules it uses, go away.
  m_worker.reset();
  m_kept.clear();
}

void Daemon::start() {
  const auto now = m_clocks.now();
  const auto wall = m_clocks.wall();
  std::vector<std::string> refused;
  for (const StoreSpec& spec : m_options.stores) {
    const StoreLogScope scope(spec.name);
    if (auto reason = engine::hands_off_reason(spec.root, spec.settings); !reason.empty()) {
      refused.push_back(std::move(reason));
      spdlog::error("{}", refused.back());
      continue;
    }
    if (!git::Repository::exists_at(spec.root)) {
      refused.push_back(fmt::format("{}: not an engram store; create it with `engram init {}`",
                                    spec.root.string(), spec.root.string()));
      spdlog::error("{}", refused.back());
      continue;
    }
    const auto state = spec.root / engine::layout_from(spec.settings, spec.root).state;
    auto lock = StoreLock::take(state);
    if (!lock) {
      refused.push_back(fmt::format("{}: {}", spec.root.string(), lock.error()));
      spdlog::error("{}", refused.back());
      continue;
    }
    if (m_options.recover) {
      // Before the watcher exists, so what recovery writes is not taken for the agent's.
      try {
        m_options.recover(spec);
      } catch (const std::exception& error) {
        spdlog::error("recovery failed: {}; the next consolidation tries again", error.what());
      }
    }
    auto kept = std::make_unique<Kept>();
    kept->lock.emplace(std::move(lock).value());
    auto store = std::make_unique<StoreWatch>(spec, wall);
    try {
      const std::size_t index = m_stores.size();
      kept->server = std::make_unique<ControlServer>(
          m_loop, socket_path(spec.root),
          [this, index](ConnectionId connection, const nlohmann::json& request) {
            on_request(index, connection, request);
          });
      store->start(m_make_watcher, now);
    } catch (const std::exception& error) {
      refused.push_back(fmt::format("{}: {}", spec.root.string(), error.what()));
      spdlog::error("{}", refused.back());
      continue;
    }
    spdlog::info("control socket {}", kept->server->path().string());
    m_stores.push_back(std::move(store));
    m_kept.push_back(std::move(kept));
    watch_fd(m_stores.size() - 1);
  }
  if (m_stores.empty()) {
    throw Fatal("daemon: no store to keep{}{}", refused.empty() ? "" : ": ",
                fmt::join(refused, "; "));
  }
  if (const auto interval = m_notifier.watchdog_interval()) {
    m_next_watchdog = now + *interval;
  }
}

void Daemon::notify_ready() {
  m_notifier.ready(
      fmt::format("watching {} store{}", m_stores.size(), m_stores.size() == 1 ? "" : "s"));
  spdlog::info("ready: keeping {} store{}", m_stores.size(), m_stores.size() == 1 ? "" : "s");
}

void Daemon::watch_fd(std::size_t index) {
  Kept& kept = *m_kept[index];
  const int fd = m_stores[index]->watcher_fd();
  if (fd == kept.watched_fd) {
    return;
  }
  if (kept.watched_fd >= 0) {
    m_loop.remove(kept.watched_fd);
  }
  kept.watched_fd = fd;
  if (fd >= 0) {
    m_loop.add(fd, [this, index](std::uint32_t) { m_stores[index]->read_changes(m_clocks.now()); });
  }
}

std::vector<std::filesystem::path> Daemon::socket_paths() const {
  std::vector<std::filesystem::path> paths;
  for (const auto& kept : m_kept) {
    paths.push_back(kept->server->path());
  }
  return paths;
}

std::optional<Clock::time_point> Daemon::next_deadline(Clock::time_point now,
                                                       std::time_t wall) const {
  std::optional<Clock::time_point> earliest = m_next_watchdog;
  for (const auto& store : m_stores) {
    const auto at = store->deadline(now, wall);
    if (at && (!earliest || *at < *earliest)) {
      earliest = at;
    }
  }
  return earliest;
}

bool Daemon::step(std::optional<std::chrono::milliseconds> max_wait) {
  {
    const auto now = m_clocks.now();
    // Stopping, only the running job's result is awaited: no timers.
    m_loop.arm(m_stopping ? std::nullopt : next_deadline(now, m_clocks.wall()), now);
  }
  m_loop.step(max_wait);
  const auto now = m_clocks.now();
  collect_results();
  for (auto& store : m_stores) {
    store->poll(now);
  }
  if (m_next_watchdog && now >= *m_next_watchdog) {
    m_notifier.alive();
    m_next_watchdog = now + *m_notifier.watchdog_interval();
  }
  if (m_stopping) {
    return m_worker->busy();
  }
  start_due_jobs();
  update_status();
  return true;
}

int Daemon::run() {
  start();
  notify_ready();
  while (step(std::nullopt)) {
  }
  spdlog::info("stopped");
  return 0;
}

void Daemon::start_due_jobs() {
  const auto now = m_clocks.now();
  const auto wall = m_clocks.wall();
  for (std::size_t index = 0; index < m_stores.size(); ++index) {
    auto job = m_stores[index]->take_job(now, wall, m_next_job);
    if (!job) {
      continue;
    }
    ++m_next_job;
    job->store = index;
    auto& waiters = m_kept[index]->request_waiters;
    if (!waiters.empty() && !job->release) {
      watch_progress(index, *job, waiters);
      m_waiters[job->id] = std::move(waiters);
      waiters.clear();
    }
    m_worker->submit(std::move(*job));
  }
}

void Daemon::watch_progress(std::size_t index, Job& job, const std::vector<ConnectionId>& waiters) {
  auto& wanted = m_kept[index]->progress_wanted;
  std::vector<ConnectionId> clients;
  for (const ConnectionId connection : waiters) {
    if (wanted.count(connection) != 0) {
      clients.push_back(connection);
    }
  }
  wanted.clear();
  if (clients.empty()) {
    return;
  }
  job.progress = std::make_shared<JobProgress>([this] { m_loop.wake(); });
  m_watching[job.id] = Watching{index, job.progress, std::move(clients)};
}

void Daemon::forward_progress() {
  for (auto& [id, watching] : m_watching) {
    if (const auto report = watching.progress->take()) {
      for (const ConnectionId connection : watching.clients) {
        m_kept[watching.store]->server->tell(connection, progress_message(*report));
      }
    }
  }
}

void Daemon::collect_results() {
  const auto now = m_clocks.now();
  const auto wall = m_clocks.wall();
  auto results = m_worker->take_results();
  forward_progress(); // a finished job's last report before its reply
  for (JobResult& result : results) {
    m_watching.erase(result.id);
    StoreWatch& store = *m_stores[result.store];
    store.finished(result, now, wall);
    if (result.released) {
      // The worker gave back what it freed; this thread freed what it
      // read of the store too (its recovery at start, the runs' results).
      return_freed_memory();
    }
    const auto waiting = m_waiters.find(result.id);
    if (waiting == m_waiters.end()) {
      continue;
    }
    nlohmann::json reply = {{"ok", result.ok},
                            {"store", store.root().string()},
                            {"pid", ::getpid()},
                            {"kind", kind_name(result.kind)},
                            {"reason", reason_name(result.reason)},
                            {"took_ms", result.took_ms()}};
    if (result.ok) {
      reply["summary"] = result.summary;
      reply["record_text"] = result.record_text;
      reply["record"] = result.record;
      reply["commit"] = result.commit ? nlohmann::json(*result.commit) : nlohmann::json(nullptr);
      reply["snapshot_commit"] = result.snapshot_commit ? nlohmann::json(*result.snapshot_commit)
                                                        : nlohmann::json(nullptr);
    } else {
      reply["error"] = result.error;
    }
    for (const ConnectionId connection : waiting->second) {
      m_kept[result.store]->server->reply(connection, reply);
    }
    m_waiters.erase(waiting);
  }
}

void Daemon::on_signals() {
  while (const auto signal = m_signals.next()) {
    if (*signal == SIGHUP) {
      spdlog::info("SIGHUP: reloading the configuration");
      reload();
    } else {
      request_stop(*signal == SIGINT ? "SIGINT" : "SIGTERM");
    }
  }
}

void Daemon::request_stop(const char* why) {
  if (m_stopping) {
    spdlog::info("{}: already stopping; the running consolidation is finishing", why);
    return;
  }
  m_stopping = true;
  const bool running = m_worker->busy();
  spdlog::info("{}: stopping{}", why,
               running ? " once the running consolidation has finished" : "");
  m_notifier.stopping(running ? "stopping: finishing the running consolidation" : "stopping");
  // Queued jobs never started: nothing of them is on disk. Their clients are told.
  const nlohmann::json refusal = {{"ok", false}, {"error", "the daemon is stopping"}};
  for (const Job& job : m_worker->stop()) {
    m_watching.erase(job.id);
    if (const auto waiting = m_waiters.find(job.id); waiting != m_waiters.end()) {
      for (const ConnectionId connection : waiting->second) {
        m_kept[job.store]->server->reply(connection, refusal);
      }
      m_waiters.erase(waiting);
    }
  }
  for (auto& kept : m_kept) {
    for (const ConnectionId connection : kept->request_waiters) {
      kept->server->reply(connection, refusal);
    }
    kept->request_waiters.clear();
    kept->progress_wanted.clear();
  }
}

void Daemon::update_status() {
  std::string line;
  for (const auto& store : m_stores) {
    line += (line.empty() ? "" : "; ") + store->activity();
  }
  m_notifier.status(line);
}

} // namespace engram::daemon
