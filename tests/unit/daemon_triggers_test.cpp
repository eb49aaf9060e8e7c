// daemon::Triggers: when a store is consolidated and how, with time passed in.
#include "daemon/triggers.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>

using engram::RunKind;
using engram::daemon::Clock;
using engram::daemon::DailyTime;
using engram::daemon::Reason;
using engram::daemon::Triggers;
using engram::daemon::TriggerSettings;
using namespace std::chrono_literals;

namespace {

// Settings with only the settle period on, so each test turns on what it tests.
TriggerSettings quiet_settings() {
  TriggerSettings settings;
  settings.settle = 500ms;
  settings.max_wait = 10s;
  settings.idle_full = 0s;
  settings.lightweight_every_writes = 0;
  settings.full_at.reset();
  return settings;
}

// A fixed wall-clock time: 2026-11-22 12:00:00 UTC.
constexpr std::time_t k_noon = 1'795'348'800;

// Runs the test body in UTC, so local times are predictable.
struct Utc {
  Utc() {
    ::setenv("TZ", "UTC", 1);
    ::tzset();
  }
  ~Utc() {
    ::unsetenv("TZ");
    ::tzset();
  }
};

} // namespace

TEST_CASE("no daemon trigger is due and no deadline is armed while nothing happened") {
  Triggers triggers(quiet_settings(), k_noon);
  const auto now = Clock::now();
  CHECK_FALSE(triggers.deadline(now, k_noon).has_value());
  CHECK_FALSE(triggers.take(now + 1h, k_noon + 3600).has_value());
}

TEST_CASE("daemon triggers: changes become one lightweight run once quiet for the settle period") {
  Triggers triggers(quiet_settings(), k_noon);
  const auto start = Clock::now();
  triggers.changes(start, 3);
  triggers.changes(start + 300ms, 2);
  CHECK(triggers.deadline(start, k_noon) == start + 800ms);
  CHECK_FALSE(triggers.take(start + 799ms, k_noon).has_value());

  const auto due = triggers.take(start + 800ms, k_noon);
  REQUIRE(due.has_value());
  CHECK(due->kind == RunKind::lightweight);
  CHECK(due->reason == Reason::changes);
  CHECK(triggers.pending_changes() == 0);
  CHECK_FALSE(triggers.deadline(start + 800ms, k_noon).has_value());
}

TEST_CASE(
    "daemon triggers: a writer that never pauses is still consolidated after the maximum wait") {
  auto settings = quiet_settings();
  settings.max_wait = 2s;
  Triggers triggers(settings, k_noon);
  const auto start = Clock::now();
  for (int i = 0; i < 30; ++i) {
    triggers.changes(start + i * 100ms, 1);
  }
  CHECK(triggers.deadline(start, k_noon) == start + 2s);
  CHECK(triggers.take(start + 2s, k_noon).has_value());
}

TEST_CASE("daemon triggers: a guard exceeded asks for a full run at once, which takes pending "
          "changes too") {
  Triggers triggers(quiet_settings(), k_noon);
  const auto now = Clock::now();
  triggers.changes(now, 1);
  triggers.guard_exceeded();
  CHECK(triggers.deadline(now, k_noon) == now);
  const auto due = triggers.take(now, k_noon);
  REQUIRE(due.has_value());
  CHECK(due->kind == RunKind::full);
  CHECK(due->reason == Reason::guard);
  CHECK(triggers.pending_changes() == 0);
  CHECK_FALSE(triggers.take(now + 1s, k_noon).has_value());
}

TEST_CASE("daemon triggers: an idle spell after changes asks for a full run, and only once") {
  auto settings = quiet_settings();
  settings.idle_full = 300s;
  Triggers triggers(settings, k_noon);
  const auto start = Clock::now();
  triggers.changes(start, 1);
  const auto first = triggers.take(start + 500ms, k_noon);
  REQUIRE(first.has_value());
  CHECK(first->kind == RunKind::lightweight);
  // The lightweight run does not satisfy the idle trigger.
  CHECK(triggers.deadline(start + 500ms, k_noon) == start + 300s);
  const auto idle = triggers.take(start + 300s, k_noon);
  REQUIRE(idle.has_value());
  CHECK(idle->kind == RunKind::full);
  CHECK(idle->reason == Reason::idle);
  CHECK_FALSE(triggers.deadline(start + 300s, k_noon).has_value());
}

TEST_CASE(
    "daemon triggers: every so many writes a lightweight run is due without waiting for quiet") {
  auto settings = quiet_settings();
  settings.lightweight_every_writes = 50;
  Triggers triggers(settings, k_noon);
  const auto now = Clock::now();
  triggers.changes(now, 49);
  CHECK_FALSE(triggers.take(now, k_noon).has_value());
  triggers.changes(now, 1);
  const auto due = triggers.take(now, k_noon);
  REQUIRE(due.has_value());
  CHECK(due->reason == Reason::writes);
  CHECK(triggers.writes() == 0);
}

TEST_CASE("daemon triggers: the daily time asks for a full run and the next one is a day later") {
  const Utc utc;
  auto settings = quiet_settings();
  settings.full_at = DailyTime{2, 0};
  Triggers triggers(settings, k_noon);
  const std::time_t two_tomorrow = k_noon + 14 * 3600; // 02:00 the next day
  REQUIRE(triggers.daily_at() == two_tomorrow);
  const auto now = Clock::now();
  CHECK(triggers.deadline(now, k_noon) == now + std::chrono::seconds(14 * 3600));
  CHECK_FALSE(triggers.take(now, two_tomorrow - 1).has_value());
  const auto due = triggers.take(now, two_tomorrow);
  REQUIRE(due.has_value());
  CHECK(due->kind == RunKind::full);
  CHECK(due->reason == Reason::daily);
  CHECK(triggers.daily_at() == two_tomorrow + 86'400);
}

TEST_CASE("the daemon's next_daily is strictly after now, today when the time is still ahead") {
  const Utc utc;
  CHECK(engram::daemon::next_daily(k_noon, DailyTime{13, 30}) == k_noon + 5400);
  CHECK(engram::daemon::next_daily(k_noon, DailyTime{12, 0}) == k_noon + 86'400);
  CHECK(engram::daemon::next_daily(k_noon, DailyTime{0, 0}) == k_noon + 12 * 3600);
}

TEST_CASE("daemon triggers: while paused only explicit requests are due, changes wait for resume") {
  Triggers triggers(quiet_settings(), k_noon);
  const auto now = Clock::now();
  triggers.set_paused(true, k_noon);
  triggers.changes(now, 2);
  triggers.guard_exceeded();
  CHECK_FALSE(triggers.deadline(now, k_noon).has_value());
  CHECK_FALSE(triggers.take(now + 1min, k_noon).has_value());

  triggers.request(RunKind::lightweight, Reason::request);
  auto due = triggers.take(now + 1min, k_noon);
  REQUIRE(due.has_value());
  CHECK(due->reason == Reason::request);

  triggers.set_paused(false, k_noon);
  triggers.changes(now + 2min, 1);
  triggers.guard_exceeded();
  due = triggers.take(now + 2min, k_noon);
  REQUIRE(due.has_value());
  CHECK(due->kind == RunKind::full);
}

TEST_CASE("daemon triggers: the strongest of several requests wins, full over lightweight") {
  Triggers triggers(quiet_settings(), k_noon);
  triggers.request(RunKind::lightweight, Reason::request);
  triggers.request(RunKind::full, Reason::marker);
  triggers.request(RunKind::lightweight, Reason::request);
  const auto due = triggers.take(Clock::now(), k_noon);
  REQUIRE(due.has_value());
  CHECK(due->kind == RunKind::full);
  CHECK(due->reason == Reason::marker);
}

TEST_CASE("daemon triggers: reconfiguring applies a new settle period to changes already pending") {
  Triggers triggers(quiet_settings(), k_noon);
  const auto start = Clock::now();
  triggers.changes(start, 1);
  auto settings = quiet_settings();
  settings.settle = 2s;
  triggers.reconfigure(settings, k_noon);
  CHECK(triggers.settings().settle == 2s);
  CHECK(triggers.deadline(start, k_noon) == start + 2s);
  CHECK_FALSE(triggers.take(start + 1s, k_noon).has_value());
  CHECK(triggers.take(start + 2s, k_noon).has_value());
}

TEST_CASE("trigger settings come from the daemon keys, the daily time parsed") {
  auto settings = engram::config::Settings::defaults();
  settings.set("daemon.settle_ms", std::int64_t{250});
  settings.set("daemon.max_wait_ms", std::int64_t{100}); // below settle: raised to it
  settings.set("daemon.full_at", std::string("23:45"));
  const auto read = TriggerSettings::from(settings);
  CHECK(read.settle == 250ms);
  CHECK(read.max_wait == 250ms);
  REQUIRE(read.full_at.has_value());
  CHECK(read.full_at->hour == 23);
  CHECK(read.full_at->minute == 45);
  settings.set("daemon.full_at", std::string(""));
  CHECK_FALSE(TriggerSettings::from(settings).full_at.has_value());
}
