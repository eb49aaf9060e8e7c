// Settling: a trailing quiet period capped by a maximum wait from the first
// pending change, driven with explicit times.
#include "watch/settle.hpp"

#include <catch2/catch.hpp>

using engram::watch::Clock;
using engram::watch::Settle;
using namespace std::chrono_literals;

namespace {

// A fixed origin, so times read as offsets.
const Clock::time_point k_start{std::chrono::hours(1)};

} // namespace

TEST_CASE("a watch settle with nothing pending has no deadline and is never ready") {
  const Settle settle(500ms, 10s);
  CHECK_FALSE(settle.deadline().has_value());
  CHECK_FALSE(settle.ready(k_start + 1h));
  CHECK(settle.pending() == 0);
}

TEST_CASE("watched changes settle once the quiet period passes without another") {
  Settle settle(500ms, 10s);
  settle.note(k_start);
  CHECK(settle.deadline() == k_start + 500ms);
  CHECK_FALSE(settle.ready(k_start + 499ms));
  CHECK(settle.ready(k_start + 500ms));
}

TEST_CASE("each new watched change pushes the quiet deadline back") {
  Settle settle(500ms, 10s);
  settle.note(k_start);
  settle.note(k_start + 300ms, 2);
  CHECK(settle.pending() == 3);
  CHECK(settle.deadline() == k_start + 800ms);
  CHECK_FALSE(settle.ready(k_start + 700ms));
  CHECK(settle.ready(k_start + 800ms));
}

TEST_CASE("a continuous stream of watched changes is ready at the maximum wait after the first") {
  Settle settle(500ms, 2s);
  // A change every 100 ms, so the stream never goes quiet.
  Clock::time_point now = k_start;
  bool became_ready = false;
  for (int i = 0; i < 100 && !became_ready; ++i) {
    settle.note(now);
    became_ready = settle.ready(now);
    if (!became_ready) {
      now += 100ms;
    }
  }
  REQUIRE(became_ready);
  CHECK(now == k_start + 2s);
  CHECK(settle.deadline() == k_start + 2s);
}

TEST_CASE("taking settled watch changes returns their count and starts a new quiet period and "
          "maximum wait") {
  Settle settle(500ms, 2s);
  settle.note(k_start, 4);
  settle.note(k_start + 1s);
  CHECK(settle.take() == 5);
  CHECK(settle.pending() == 0);
  CHECK_FALSE(settle.deadline().has_value());
  CHECK(settle.take() == 0);

  // The maximum wait counts from the first change after the take, not before it.
  settle.note(k_start + 3s);
  CHECK(settle.deadline() == k_start + 3s + 500ms);
  for (auto t = k_start + 3s; t <= k_start + 4s + 600ms; t += 200ms) {
    settle.note(t);
  }
  CHECK(settle.deadline() == k_start + 5s);
}

TEST_CASE("reconfiguring a watch settle applies new periods and keeps the first change's time") {
  Settle settle(500ms, 10s);
  settle.note(k_start);
  settle.note(k_start + 400ms);
  settle.reconfigure(2s, 1s);
  CHECK(settle.quiet() == 2s);
  CHECK(settle.max_wait() == 1s);
  CHECK(settle.pending() == 2);
  CHECK(settle.deadline() == k_start + 1s); // max_wait from the first change wins
  settle.reconfigure(100ms, 10s);
  CHECK(settle.deadline() == k_start + 500ms);
}

TEST_CASE("a watch settle notes nothing for a count of zero, and a stale time does not pull the "
          "deadline back") {
  Settle settle(500ms, 10s);
  settle.note(k_start, 0);
  CHECK_FALSE(settle.deadline().has_value());
  settle.note(k_start + 1s);
  settle.note(k_start);
  CHECK(settle.deadline() == k_start + 1s + 500ms);
}
