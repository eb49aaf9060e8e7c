// What the daemon says about a store: the JSON `engram status` shows, and the
// one line the service manager shows.
#include "daemon/store_watch.hpp"
#include "engine/replaced_files.hpp"

#include <fmt/format.h>

namespace engram::daemon {

namespace {

// Milliseconds from `now` to `at`, never negative.
std::int64_t ms_until(Clock::time_point at, Clock::time_point now) {
  return std::max<std::int64_t>(
      0, std::chrono::duration_cast<std::chrono::milliseconds>(at - now).count());
}

// A wall-clock time as local ISO 8601 with its offset.
std::string local_iso(std::time_t at) {
  std::tm local{};
  localtime_r(&at, &local);
  char text[40];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S%z", &local);
  return text;
}

// A commit id or null.
nlohmann::json optional_id(const std::optional<std::string>& id) {
  return id ? nlohmann::json(*id) : nlohmann::json(nullptr);
}

} // namespace

nlohmann::json StoreWatch::status(Clock::time_point now, std::time_t wall) const {
  const TriggerSettings& settings = m_triggers.settings();
  nlohmann::json out;
  out["store"] = m_spec.root.string();
  out["name"] = m_spec.name;
  out["watcher"] = m_watcher ? std::string(m_watcher->name()) : std::string();
  out["paused"] = m_triggers.paused();
  out["missing"] = !folder_present();
  const auto* running = std::get_if<run_state::Running>(&m_state);
  const auto* waiting = std::get_if<run_state::WaitingForGit>(&m_state);
  out["state"] = running != nullptr   ? "consolidating"
                 : !folder_present()  ? "missing"
                 : waiting != nullptr ? "waiting-for-git"
                 : std::holds_alternative<run_state::Coalescing>(m_state)
                     ? "waiting-for-snapshot-interval"
                 : m_triggers.paused()              ? "paused"
                 : m_triggers.pending_changes() > 0 ? "settling"
                                                    : "idle";
  out["running"] = running != nullptr ? nlohmann::json{{"kind", kind_name(running->due.kind)},
                                                       {"reason", reason_name(running->due.reason)}}
                                      : nlohmann::json(nullptr);
  out["waiting_for_git"] =
      waiting != nullptr ? nlohmann::json(waiting->reason) : nlohmann::json(nullptr);
  out["pending_changes"] = m_triggers.pending_changes() + m_held.size();
  out["writes_since_consolidation"] = m_triggers.writes();
  out["consolidations"] = m_runs;
  // Lines a writer holding a replaced file open wrote, not carried over yet
  // (the next look, within a second, starts a run that does).
  out["carry_over_waiting"] = engine::replaced_grew(m_spec.root, m_layout);
  out["settings"] = {
      {"settle_ms", settings.settle.count()},
      {"max_wait_ms", settings.max_wait.count()},
      {"idle_full_after_s", settings.idle_full.count()},
      {"lightweight_every_writes", settings.lightweight_every_writes},
      {"full_at", settings.full_at
                      ? fmt::format("{:02}:{:02}", settings.full_at->hour, settings.full_at->minute)
                      : std::string()},
  };
  if (m_last) {
    out["last"] = {{"kind", kind_name(m_last->kind)},
                   {"reason", reason_name(m_last->reason)},
                   {"ok", m_last->ok},
                   {"at", local_iso(m_last_at)},
                   {"took_ms", m_last->took_ms()},
                   {"summary", m_last->ok ? m_last->summary : m_last->error},
                   {"commit", optional_id(m_last->commit)},
                   {"snapshot_commit", optional_id(m_last->snapshot_commit)}};
  } else {
    out["last"] = nullptr;
  }
  auto next = nlohmann::json::array();
  if (const auto at = m_triggers.deadline(now, wall); at && m_triggers.pending_changes() > 0) {
    next.push_back({{"trigger", "settled changes"}, {"in_ms", ms_until(*at, now)}});
  }
  if (const auto at = m_triggers.idle_at()) {
    next.push_back({{"trigger", "full when idle"}, {"in_ms", ms_until(*at, now)}});
  }
  if (const auto at = m_triggers.daily_at()) {
    next.push_back({{"trigger", "daily full"},
                    {"at", local_iso(*at)},
                    {"in_ms", std::max<std::int64_t>(0, (*at - wall) * 1000)}});
  }
  if (const auto* held = std::get_if<run_state::Coalescing>(&m_state)) {
    next.push_back({{"trigger", "changes, once the snapshot interval has passed"},
                    {"in_ms", ms_until(held->until, now)}});
  }
  if (m_retry) {
    next.push_back({{"trigger", "retry after failure"}, {"in_ms", ms_until(m_retry->at, now)}});
  }
  out["next"] = std::move(next);
  return out;
}

std::string StoreWatch::activity() const {
  if (const auto* running = std::get_if<run_state::Running>(&m_state)) {
    return fmt::format("{}: consolidating ({}: {})", m_spec.name, kind_name(running->due.kind),
                       reason_name(running->due.reason));
  }
  if (const auto* waiting = std::get_if<run_state::WaitingForGit>(&m_state)) {
    return fmt::format("{}: waiting: {}", m_spec.name, waiting->reason);
  }
  if (m_triggers.paused()) {
    return fmt::format("{}: paused", m_spec.name);
  }
  if (m_last) {
    return fmt::format("{}: {} after {} consolidation{}", m_spec.name,
                       m_last->ok ? "idle" : "failed", kind_name(m_last->kind),
                       m_last->commit ? " " + m_last->commit->substr(0, 12) : std::string());
  }
  return fmt::format("{}: idle", m_spec.name);
}

} // namespace engram::daemon
