// daemon::Daemon driven one step at a time: a fake watcher feeds it changes, a
// fake consolidator stands in for the engine, and the clocks are the test's,
// so every trigger is checked without waiting for real time to pass.
#include "daemon/daemon.hpp"
#include "git/repository.hpp"
#include "lib/fake_watcher.hpp"
#include "lib/temp_dir.hpp"
#include "store/scan.hpp"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <csignal>
#include <fmt/format.h>
#include <future>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace fs = std::filesystem;
using engram::RunKind;
using engram::daemon::Clock;
using engram::daemon::Daemon;
using engram::daemon::Job;
using engram::daemon::JobResult;
using engram::daemon::Reason;
using engram::test::FakeFeed;
using engram::test::FakeWatcher;
using engram::test::TempDir;
using engram::test::write_file;
using namespace std::chrono_literals;

namespace {

// Settings with every trigger but settling off, settle 500 ms.
engram::config::Settings quiet_settings() {
  auto settings = engram::config::Settings::defaults();
  settings.set("daemon.settle_ms", std::int64_t{500});
  settings.set("daemon.idle_full_after_s", std::int64_t{0});
  settings.set("daemon.lightweight_every_writes", std::int64_t{0});
  settings.set("daemon.full_at", std::string(""));
  settings.set("git.snapshot_interval_s", std::int64_t{0});
  settings.set("daemon.release_after_s", std::int64_t{0});
  return settings;
}

// A daemon over one fresh store, with fakes for everything outside it.
class Harness {
public:
  explicit Harness(engram::config::Settings settings = quiet_settings()) {
    spdlog::set_level(spdlog::level::warn); // the daemon's info lines are for people
    ::setenv("XDG_RUNTIME_DIR", m_runtime.path().c_str(), 1);
    REQUIRE(engram::git::Repository::init(m_store.path()).has_value());
    write_file(m_store / ".git" / "info" / "exclude", ".engram/\n");
    config.global = settings;
    m_daemon = make(settings);
    m_daemon->start();
  }
  ~Harness() {
    release.set_value(); // a run still held lets go, so the worker can be joined
    m_daemon.reset();
    ::unsetenv("XDG_RUNTIME_DIR");
    spdlog::set_level(spdlog::level::info);
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  // Another daemon on the same store, same fakes.
  std::unique_ptr<Daemon> make(const engram::config::Settings& settings) {
    engram::daemon::DaemonOptions options;
    options.stores = {{m_store.path(), "test", settings}};
    options.load_config =
        [this]() -> engram::Expected<engram::config::Config, std::vector<std::string>> {
      ++reloads;
      if (!reload_problems.empty()) {
        return engram::unexpected(reload_problems);
      }
      return config;
    };
    return std::make_unique<Daemon>(
        std::move(options), [this](const Job& job) { return run(job); },
        [this](const fs::path&, const engram::watch::WatchOptions&) {
          ++feed->made;
          return std::make_unique<FakeWatcher>(feed);
        },
        engram::daemon::Clocks{[this] { return now; }, [this] { return wall; }});
  }

  // Steps until `done` holds (a bounded number of real 20 ms waits).
  bool step_until(const std::function<bool()>& done) {
    for (int i = 0; i < 250; ++i) {
      m_daemon->step(20ms);
      if (done()) {
        return true;
      }
    }
    return false;
  }

  // One turn that handles what is ready now.
  void turn() { m_daemon->step(0ms); }

  // Lets the (fake) time pass, then takes a turn.
  void pass(std::chrono::milliseconds time) {
    now += time;
    turn();
  }

  // The jobs the daemon has handed to the worker so far.
  std::vector<Job> jobs() {
    const std::lock_guard lock(m_mutex);
    return m_jobs;
  }

  // Runs finished and taken back by the loop.
  std::size_t finished() {
    return m_daemon->stores().at(0)->status(now, wall).value("consolidations", std::size_t{0});
  }

  // The daemon's status of the store.
  nlohmann::json status() { return m_daemon->stores().at(0)->status(now, wall); }

  // Sends a control request while the daemon serves it.
  nlohmann::json ask(const nlohmann::json& request) {
    auto answer = std::async(std::launch::async, [&] {
      return engram::daemon::ask(m_daemon->socket_paths().at(0), request, 5000ms);
    });
    REQUIRE(step_until([&] { return answer.wait_for(0ms) == std::future_status::ready; }));
    const auto reply = answer.get();
    REQUIRE(reply.has_value());
    return *reply;
  }

  Daemon& daemon() { return *m_daemon; }
  const fs::path& store() const { return m_store.path(); }

  std::shared_ptr<FakeFeed> feed = std::make_shared<FakeFeed>();
  Clock::time_point now = Clock::now();
  std::time_t wall = 1'795'348'800; // 2026-11-22 12:00 UTC
  engram::config::Config config;    // what a reload reads
  std::vector<std::string> reload_problems;
  std::atomic<int> reloads{0};
  std::function<JobResult(const Job&)> behaviour; // what a run does; default: nothing
  bool hold = false;                              // runs wait for `release`
  std::promise<void> release;

private:
  // The fake consolidator, on the worker thread.
  JobResult run(const Job& job) {
    {
      const std::lock_guard lock(m_mutex);
      m_jobs.push_back(job);
    }
    if (hold) {
      m_released.wait();
    }
    JobResult result = behaviour ? behaviour(job) : JobResult{};
    result.id = job.id;
    result.store = job.store;
    result.kind = job.kind;
    result.reason = job.reason;
    result.ok = true;
    result.released = job.release;
    return result;
  }

  TempDir m_runtime;
  TempDir m_store;
  std::mutex m_mutex;
  std::vector<Job> m_jobs;
  std::shared_future<void> m_released = release.get_future().share();
  std::unique_ptr<Daemon> m_daemon;
};

} // namespace

TEST_CASE(
    "the daemon settles changes into one lightweight consolidation, not before the quiet period") {
  Harness harness;
  harness.feed->push("semantic/a.md");
  harness.feed->push("semantic/b.md");
  harness.turn();
  harness.pass(499ms);
  CHECK(harness.jobs().empty());
  CHECK(harness.status().value("pending_changes", 0) == 2);

  harness.pass(1ms);
  REQUIRE(harness.step_until([&] { return harness.finished() == 1; }));
  const auto jobs = harness.jobs();
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].kind == RunKind::lightweight);
  CHECK(jobs[0].reason == Reason::changes);
  CHECK(jobs[0].today.to_string() == "2026-11-22");
  harness.pass(10s);
  CHECK(harness.jobs().size() == 1);
}

TEST_CASE("engram's own writes, seen by the daemon during or after its run, start no further run") {
  Harness harness;
  const std::string index = "# Memory index\n";
  harness.behaviour = [&](const Job&) {
    write_file(harness.store() / "MEMORY.md", index);
    harness.feed->push("MEMORY.md"); // seen while the run is still going
    JobResult result;
    result.written = {{"MEMORY.md", engram::store::content_hash(index)}};
    return result;
  };
  harness.feed->push("WORKING.md");
  harness.turn();
  harness.pass(500ms);
  REQUIRE(harness.step_until([&] { return harness.finished() == 1; }));
  harness.feed->push("MEMORY.md"); // and once more after it
  harness.turn();
  harness.pass(1s);
  CHECK(harness.jobs().size() == 1);
  CHECK(harness.status().value("pending_changes", 1) == 0);

  // The agent's own edit of the same file is a change again.
  harness.behaviour = nullptr;
  write_file(harness.store() / "MEMORY.md", index + "- edited by hand\n");
  harness.feed->push("MEMORY.md");
  harness.turn();
  harness.pass(500ms);
  REQUIRE(harness.step_until([&] { return harness.finished() == 2; }));
}

TEST_CASE("WORKING.md over its guard makes the daemon start a full consolidation at once") {
  Harness harness;
  write_file(harness.store() / "WORKING.md", "# Working\n" + std::string(3001, 'x') + "\n");
  harness.feed->push("WORKING.md");
  REQUIRE(harness.step_until([&] { return harness.finished() == 1; }));
  const auto jobs = harness.jobs();
  CHECK(jobs.at(0).kind == RunKind::full);
  CHECK(jobs.at(0).reason == Reason::guard);
}

TEST_CASE("an append's request marker makes the daemon's next run a full one, which consumes it") {
  Harness harness;
  write_file(harness.store() / ".engram" / "consolidate-requested", "guard\n");
  harness.feed->push("episodic/2026-11-22-working-memory.md");
  harness.turn();
  harness.pass(500ms);
  REQUIRE(harness.step_until([&] { return harness.finished() == 1; }));
  const auto job = harness.jobs().at(0);
  CHECK(job.kind == RunKind::full);
  CHECK(job.reason == Reason::marker);
  CHECK(job.consume_marker);
}

TEST_CASE("an append's request marker written while a run works is served by one more run, "
          "with no watched change after it") {
  Harness harness;
  // The append wrote its overflow file (seen), then its marker only once the
  // run had started: the run did not see the marker, and nothing else changes.
  harness.behaviour = [&](const Job& job) {
    if (harness.jobs().size() == 1) {
      write_file(harness.store() / ".engram" / "consolidate-requested", "guard\n");
    } else if (job.consume_marker) {
      fs::remove(harness.store() / ".engram" / "consolidate-requested");
    }
    return JobResult{};
  };
  harness.feed->push("episodic/2026-11-22-working-memory.md");
  harness.turn();
  harness.pass(500ms);
  REQUIRE(harness.step_until([&] { return harness.finished() == 2; }));
  const auto jobs = harness.jobs();
  CHECK_FALSE(jobs.at(0).consume_marker);
  CHECK(jobs.at(1).kind == RunKind::full);
  CHECK(jobs.at(1).reason == Reason::marker);
  CHECK(jobs.at(1).consume_marker);
  harness.pass(10s);
  CHECK(harness.jobs().size() == 2);
}

TEST_CASE("while git holds index.lock the daemon waits, and runs when the lock goes") {
  Harness harness;
  write_file(harness.store() / ".git" / "index.lock", "");
  harness.feed->push("semantic/a.md");
  harness.turn();
  harness.pass(500ms);
  CHECK(harness.jobs().empty());
  CHECK(harness.status().value("state", "") == "waiting-for-git");

  fs::remove(harness.store() / ".git" / "index.lock");
  harness.feed->push(".git/index.lock", engram::watch::ChangeKind::removed);
  REQUIRE(harness.step_until([&] { return harness.finished() == 1; }));
  CHECK(harness.jobs().at(0).reason == Reason::changes);
}

TEST_CASE("the daemon's status shows the store, and reload applies a new settle time") {
  Harness harness;
  auto reply = harness.ask({{"request", "status"}});
  CHECK(reply.value("ok", false));
  CHECK(reply["store"]["settings"].value("settle_ms", 0) == 500);
  CHECK(reply["store"].value("watcher", "") == "fake");

  harness.config.global.set("daemon.settle_ms", std::int64_t{1234});
  reply = harness.ask({{"request", "reload"}});
  CHECK(reply.value("ok", false));
  CHECK(harness.status()["settings"].value("settle_ms", 0) == 1234);

  harness.reload_problems = {"config.toml:3: unknown key 'daemon.setle_ms'"};
  reply = harness.ask({{"request", "reload"}});
  CHECK_FALSE(reply.value("ok", true));
  CHECK(reply["errors"].size() == 1);
  CHECK(harness.status()["settings"].value("settle_ms", 0) == 1234);
}

TEST_CASE("SIGHUP makes the daemon reload the configuration between two events") {
  Harness harness;
  harness.config.global.set("daemon.settle_ms", std::int64_t{50});
  const int before = harness.reloads;
  std::raise(SIGHUP); // blocked by the daemon, so it waits on the signalfd
  REQUIRE(harness.step_until([&] { return harness.reloads > before; }));
  CHECK(harness.status()["settings"].value("settle_ms", 0) == 50);
}

TEST_CASE("the daemon answers a consolidate request with the outcome of the run that served it") {
  Harness harness;
  harness.behaviour = [](const Job&) {
    JobResult result;
    result.summary = "consolidate(full): 1 rebuilt";
    result.commit = std::string(40, 'a');
    return result;
  };
  const auto reply =
      harness.ask({{"request", "consolidate"}, {"kind", "full"}, {"now", "2027-01-01"}});
  CHECK(reply.value("ok", false));
  CHECK(reply.value("commit", "") == std::string(40, 'a'));
  CHECK(reply.value("reason", "") == "request");
  CHECK(harness.jobs().at(0).today.to_string() == "2027-01-01");

  CHECK_FALSE(harness.ask({{"request", "consolidate"}, {"kind", "medium"}}).value("ok", true));
  CHECK_FALSE(harness.ask({{"request", "dance"}}).value("ok", true));
}

TEST_CASE("a paused daemon notes changes but runs only explicit requests, and resume catches up") {
  Harness harness;
  CHECK(harness.ask({{"request", "pause"}}).value("paused", false));
  harness.feed->push("semantic/a.md");
  harness.turn();
  harness.pass(10s);
  CHECK(harness.jobs().empty());
  CHECK(harness.status().value("state", "") == "paused");

  CHECK(harness.ask({{"request", "consolidate"}, {"kind", "lightweight"}}).value("ok", false));
  CHECK(harness.jobs().size() == 1);

  harness.feed->push("semantic/b.md");
  harness.turn();
  CHECK_FALSE(harness.ask({{"request", "resume"}}).value("paused", true));
  harness.pass(500ms);
  REQUIRE(harness.step_until([&] { return harness.finished() == 2; }));
}

TEST_CASE("a second daemon on the same store is refused, naming the first's pid") {
  Harness harness;
  auto second = harness.make(quiet_settings());
  CHECK_THROWS_WITH(second->start(), Catch::Contains(fmt::format("pid {}", ::getpid())));
}

TEST_CASE("a stopping daemon lets the running consolidation finish, then its loop ends") {
  Harness harness;
  harness.hold = true;
  harness.feed->push("semantic/a.md");
  harness.turn();
  harness.pass(500ms);
  REQUIRE(harness.step_until([&] { return harness.jobs().size() == 1; }));
  harness.daemon().request_stop("test");
  CHECK(harness.daemon().step(0ms)); // still running: not stopped yet
  harness.release.set_value();
  harness.release = std::promise<void>(); // the destructor sets a fresh one
  bool stopped = false;
  for (int i = 0; i < 250 && !stopped; ++i) {
    stopped = !harness.daemon().step(20ms);
  }
  CHECK(stopped);
  CHECK(harness.finished() == 1);
}

TEST_CASE("the daemon coalesces snapshots: settled changes wait out the snapshot interval") {
  auto settings = quiet_settings();
  settings.set("git.snapshot_interval_s", std::int64_t{60});
  Harness harness(settings);
  harness.behaviour = [](const Job&) {
    JobResult result;
    result.snapshot_commit = std::string(40, 'b');
    return result;
  };
  harness.feed->push("semantic/a.md");
  harness.turn();
  harness.pass(500ms);
  REQUIRE(harness.step_until([&] { return harness.finished() == 1; }));

  harness.feed->push("semantic/b.md");
  harness.turn();
  harness.pass(500ms);
  harness.pass(30s);
  CHECK(harness.jobs().size() == 1);
  CHECK(harness.status().value("state", "") == "waiting-for-snapshot-interval");

  harness.pass(30s);
  REQUIRE(harness.step_until([&] { return harness.finished() == 2; }));
  CHECK(harness.jobs().at(1).reason == Reason::changes);

  // A guard does not wait.
  harness.feed->push("semantic/c.md");
  harness.turn();
  write_file(harness.store() / "WORKING.md", std::string(3001, 'x') + "\n");
  harness.feed->push("WORKING.md");
  REQUIRE(harness.step_until([&] { return harness.finished() == 3; }));
  CHECK(harness.jobs().at(2).kind == RunKind::full);
}

TEST_CASE("a rescan from the watcher counts as a change the daemon consolidates") {
  Harness harness;
  harness.feed->push("", engram::watch::ChangeKind::rescan);
  harness.turn();
  harness.pass(500ms);
  REQUIRE(harness.step_until([&] { return harness.finished() == 1; }));
  CHECK(harness.jobs().at(0).kind == RunKind::lightweight);
}

TEST_CASE("what the engine keeps of a store is let go after release_after_s without a run") {
  auto settings = quiet_settings();
  settings.set("daemon.release_after_s", std::int64_t{60});
  Harness harness(settings);
  // Nothing is kept before the first run: nothing to let go.
  harness.pass(120s);
  CHECK(harness.jobs().empty());

  harness.feed->push("semantic/a.md");
  harness.turn();
  harness.pass(500ms);
  REQUIRE(harness.step_until([&] { return harness.finished() == 1; }));
  harness.pass(59s);
  CHECK(harness.jobs().size() == 1);

  harness.pass(1s);
  REQUIRE(harness.step_until([&] { return harness.jobs().size() == 2; }));
  CHECK(harness.jobs().at(1).release);
  CHECK(harness.finished() == 1); // not a consolidation
  harness.pass(600s);
  CHECK(harness.jobs().size() == 2); // let go once

  // A change after it is consolidated as any other, told what changed (the
  // watcher saw every change; the engine reads the store again), and what
  // that run keeps is let go in its turn; a run before the time is up
  // moves the time on.
  harness.feed->push("semantic/b.md");
  harness.turn();
  harness.pass(500ms);
  REQUIRE(harness.step_until([&] { return harness.finished() == 2; }));
  const Job third = harness.jobs().at(2);
  CHECK_FALSE(third.release);
  REQUIRE(third.changed.has_value());
  CHECK(std::find(third.changed->begin(), third.changed->end(), "semantic/b.md") !=
        third.changed->end());
  harness.pass(30s);
  harness.feed->push("semantic/c.md");
  harness.turn();
  harness.pass(500ms);
  REQUIRE(harness.step_until([&] { return harness.finished() == 3; }));
  harness.pass(40s);
  CHECK(harness.jobs().size() == 4); // 70 s after the third run, 40 s after the fourth
  harness.pass(20s);
  REQUIRE(harness.step_until([&] { return harness.jobs().size() == 5; }));
  CHECK(harness.jobs().at(4).release);
}
