// A running job's progress handed from the worker thread to the loop: the
// latest report wins, and the loop is woken at most a few times a second.
#include "daemon/job_progress.hpp"

#include <catch2/catch.hpp>
#include <thread>

using engram::daemon::JobProgress;
using namespace std::chrono_literals;

TEST_CASE("a job's progress keeps the latest report and wakes the loop on the first only, "
          "within its interval") {
  int wakes = 0;
  JobProgress progress([&] { ++wakes; }, 1h);
  CHECK_FALSE(progress.take().has_value());
  progress.update("rule dedupe", 2, 8, "rules");
  progress.update("rule episodic-decay", 1, 90, "episodic files");
  progress.update("rule episodic-decay", 2, 90, "episodic files");
  CHECK(wakes == 1);
  const auto taken = progress.take();
  REQUIRE(taken.has_value());
  CHECK(taken->step == "rule episodic-decay");
  CHECK(taken->done == 2);
  CHECK(taken->units == "episodic files");
  CHECK_FALSE(progress.take().has_value()); // taken once
}

TEST_CASE("a job's progress told from another thread reaches the loop's thread") {
  int wakes = 0;
  JobProgress progress([&] { ++wakes; }, 0ms);
  std::thread worker([&] {
    for (std::size_t done = 0; done <= 100; ++done) {
      progress.update("rule episodic-decay", done, 100, "episodic files");
    }
  });
  worker.join();
  CHECK(wakes == 101); // an interval of 0: every report wakes
  const auto last = progress.take();
  REQUIRE(last.has_value());
  CHECK(last->done == 100);
}
