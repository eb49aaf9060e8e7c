// Triggers: when one store is consolidated, and how. Settled changes ask for a
// lightweight run; a guard exceeded, an idle spell after changes, the daily
// time and explicit requests ask for a full one. Pure state: time is passed
// in, so the whole schedule can be tested without waiting.
#pragma once

#include "config/config.hpp"
#include "daemon/event_loop.hpp"
#include "engram/rule.hpp"
#include "watch/settle.hpp"

#include <chrono>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string_view>

namespace engram::daemon {

// Why a consolidation runs (strongest first when several are due at once).
enum class Reason { request, marker, guard, daily, idle, changes, writes, sync, index };

// The word logs, `engram status` and commit trailers use for a reason.
std::string_view reason_name(Reason reason);

// The word for a run kind: "full" or "lightweight".
std::string_view kind_name(RunKind kind);

// A local time of day.
struct DailyTime {
  int hour = 0;
  int minute = 0;
};

// The first moment strictly after `now` at which local time reads `at`.
std::time_t next_daily(std::time_t now, DailyTime at);

// The trigger settings of one store, read from its configuration.
struct TriggerSettings {
  std::chrono::milliseconds settle{500};      // quiet period after the last change
  std::chrono::milliseconds max_wait{10000};  // the longest a change waits for quiet
  std::chrono::seconds idle_full{300};        // full run this long after the last change; 0 off
  std::int64_t lightweight_every_writes = 50; // lightweight run after this many writes; 0 off
  std::optional<DailyTime> full_at;           // daily full run; nullopt off

  // The `daemon.*` keys of `settings`.
  static TriggerSettings from(const config::Settings& settings);
};

// A consolidation that is due.
struct Due {
  RunKind kind = RunKind::lightweight;
  Reason reason = Reason::changes;
};

// The trigger state of one store.
class Triggers {
public:
  // Starts with nothing pending; the daily run is scheduled from `wall`.
  Triggers(const TriggerSettings& settings, std::time_t wall);

  // Notes `count` changes by someone other than engram, seen at `now`.
  void changes(Clock::time_point now, std::size_t count);

  // Notes that a guarded file is over its guard: a full run is due at once.
  void guard_exceeded();

  // Asks for a run of `kind` at once; the strongest request wins until taken.
  void request(RunKind kind, Reason reason);

  // While paused only explicit requests are due; changes keep accumulating.
  void set_paused(bool paused, std::time_t wall);

  // Applies new settings; pending changes keep their first time.
  void reconfigure(const TriggerSettings& settings, std::time_t wall);

  // When the next trigger is due (now, when one already is); nullopt when nothing is pending.
  std::optional<Clock::time_point> deadline(Clock::time_point now, std::time_t wall) const;

  // The run that is due at `now`, consuming every trigger it satisfies; nullopt when none is.
  std::optional<Due> take(Clock::time_point now, std::time_t wall);

  // Changes noted and not yet consolidated.
  std::size_t pending_changes() const { return m_pending; }

  // Writes counted towards the next lightweight run.
  std::int64_t writes() const { return m_writes; }

  // When the idle full run is due; nullopt when no change waits for one.
  std::optional<Clock::time_point> idle_at() const { return m_idle_at; }

  // When the next daily full run is, as wall time; nullopt when off or paused.
  std::optional<std::time_t> daily_at() const { return m_daily_at; }

  // The settings in force.
  const TriggerSettings& settings() const { return m_settings; }

  // True while paused.
  bool paused() const { return m_paused; }

private:
  TriggerSettings m_settings;
  watch::Settle m_settle;                     // the quiet period of pending changes
  std::size_t m_pending = 0;                  // changes since the last run that took them
  std::int64_t m_writes = 0;                  // changes since the last run of any kind
  std::optional<Clock::time_point> m_idle_at; // idle full run, armed by changes
  std::optional<std::time_t> m_daily_at;      // next daily full run
  std::optional<Due> m_requested;             // explicit request (socket, marker, start-up)
  bool m_guard = false;                       // a guard is exceeded
  bool m_paused = false;                      // only explicit requests run
};

} // namespace engram::daemon
