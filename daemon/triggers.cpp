// Triggers: merging what is due into one run, so a burst that is due for
// several reasons at once still consolidates once.
#include "daemon/triggers.hpp"

#include <algorithm>

namespace engram::daemon {

std::string_view reason_name(Reason reason) {
  switch (reason) {
  case Reason::request:
    return "request";
  case Reason::marker:
    return "append-request";
  case Reason::guard:
    return "guard";
  case Reason::daily:
    return "daily";
  case Reason::idle:
    return "idle";
  case Reason::changes:
    return "changes";
  case Reason::writes:
    return "writes";
  case Reason::sync:
    return "sync";
  case Reason::index:
    return "index-behind";
  }
  return "unknown";
}

std::string_view kind_name(RunKind kind) {
  return kind == RunKind::full ? "full" : "lightweight";
}

std::time_t next_daily(std::time_t now, DailyTime at) {
  std::tm local{};
  localtime_r(&now, &local);
  local.tm_hour = at.hour;
  local.tm_min = at.minute;
  local.tm_sec = 0;
  local.tm_isdst = -1; // let mktime decide across a DST change
  std::time_t candidate = std::mktime(&local);
  if (candidate <= now) {
    localtime_r(&now, &local);
    local.tm_mday += 1;
    local.tm_hour = at.hour;
    local.tm_min = at.minute;
    local.tm_sec = 0;
    local.tm_isdst = -1;
    candidate = std::mktime(&local);
  }
  return candidate;
}

TriggerSettings TriggerSettings::from(const config::Settings& settings) {
  TriggerSettings out;
  out.settle = std::chrono::milliseconds(settings.get_int("daemon.settle_ms"));
  // A maximum wait below the quiet period would make the quiet period meaningless.
  out.max_wait =
      std::max(out.settle, std::chrono::milliseconds(settings.get_int("daemon.max_wait_ms")));
  out.idle_full = std::chrono::seconds(settings.get_int("daemon.idle_full_after_s"));
  out.lightweight_every_writes = settings.get_int("daemon.lightweight_every_writes");
  const std::string& at = settings.get_string("daemon.full_at");
  if (at.size() == 5) { // validated by the key table: HH:MM or ""
    out.full_at = DailyTime{(at[0] - '0') * 10 + (at[1] - '0'), (at[3] - '0') * 10 + (at[4] - '0')};
  }
  return out;
}

Triggers::Triggers(const TriggerSettings& settings, std::time_t wall)
    : m_settings(settings), m_settle(settings.settle, settings.max_wait) {
  if (m_settings.full_at) {
    m_daily_at = next_daily(wall, *m_settings.full_at);
  }
}

void Triggers::changes(Clock::time_point now, std::size_t count) {
  if (count == 0) {
    return;
  }
  m_settle.note(now, count);
  m_pending += count;
  m_writes += static_cast<std::int64_t>(count);
  if (m_settings.idle_full.count() > 0) {
    m_idle_at = now + m_settings.idle_full;
  }
}

void Triggers::guard_exceeded() {
  m_guard = true;
}

void Triggers::request(RunKind kind, Reason reason) {
  if (!m_requested || (kind == RunKind::full && m_requested->kind != RunKind::full)) {
    m_requested = Due{kind, reason};
  }
}

void Triggers::set_paused(bool paused, std::time_t wall) {
  m_paused = paused;
  // A daily run missed while paused is not made up for; the next one is scheduled on resume.
  m_daily_at.reset();
  if (!paused && m_settings.full_at) {
    m_daily_at = next_daily(wall, *m_settings.full_at);
  }
}

void Triggers::reconfigure(const TriggerSettings& settings, std::time_t wall) {
  m_settings = settings;
  m_settle.reconfigure(settings.settle, settings.max_wait);
  if (settings.idle_full.count() == 0) {
    m_idle_at.reset();
  }
  m_daily_at.reset();
  if (!m_paused && settings.full_at) {
    m_daily_at = next_daily(wall, *settings.full_at);
  }
}

std::optional<Clock::time_point> Triggers::deadline(Clock::time_point now, std::time_t wall) const {
  if (m_requested) {
    return now;
  }
  if (m_paused) {
    return std::nullopt;
  }
  const bool writes_due =
      m_settings.lightweight_every_writes > 0 && m_writes >= m_settings.lightweight_every_writes;
  if (m_guard || writes_due) {
    return now;
  }
  std::optional<Clock::time_point> earliest;
  const auto consider = [&](std::optional<Clock::time_point> at) {
    if (at && (!earliest || *at < *earliest)) {
      earliest = at;
    }
  };
  consider(m_settle.deadline());
  consider(m_idle_at);
  if (m_daily_at) {
    consider(now + std::chrono::seconds(std::max<std::time_t>(0, *m_daily_at - wall)));
  }
  return earliest;
}

std::optional<Due> Triggers::take(Clock::time_point now, std::time_t wall) {
  std::optional<Due> due = m_requested;
  const auto offer = [&](RunKind kind, Reason reason) {
    // Full beats lightweight; among equals the first offered (stronger reason) stays.
    if (!due || (kind == RunKind::full && due->kind != RunKind::full)) {
      due = Due{kind, reason};
    }
  };
  if (!m_paused) {
    if (m_guard) {
      offer(RunKind::full, Reason::guard);
    }
    if (m_daily_at && wall >= *m_daily_at) {
      offer(RunKind::full, Reason::daily);
    }
    if (m_idle_at && now >= *m_idle_at) {
      offer(RunKind::full, Reason::idle);
    }
    if (m_settle.ready(now)) {
      offer(RunKind::lightweight, Reason::changes);
    }
    if (m_settings.lightweight_every_writes > 0 &&
        m_writes >= m_settings.lightweight_every_writes) {
      offer(RunKind::lightweight, Reason::writes);
    }
  }
  if (!due) {
    return std::nullopt;
  }
  // Every run commits the agent's changes first, so it takes the pending
  // ones whatever its kind; a full run also satisfies every full trigger.
  m_requested.reset();
  m_settle.take();
  m_pending = 0;
  m_writes = 0;
  if (due->kind == RunKind::full) {
    m_guard = false;
    m_idle_at.reset();
    if (m_daily_at && wall >= *m_daily_at && m_settings.full_at) {
      m_daily_at = next_daily(wall, *m_settings.full_at);
    }
  }
  return due;
}

} // namespace engram::daemon
