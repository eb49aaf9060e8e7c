// The real daemon on real folders: what an agent does to a store becomes
// commits — a guard exceeded, an editor's rename-save, a burst of writes, a
// folder moved in — and engram's own writes start nothing more. Every wait is
// for a commit or the daemon's own state, bounded; none guesses with a sleep.
#include "base/platform.hpp"
#include "base/utf8.hpp"
#include "lib/daemon_process.hpp"
#include "lib/stores.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <csignal>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

namespace fs = std::filesystem;
using engram::test::DaemonProcess;
using engram::test::head_of;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::semantic_memory;
using engram::test::subjects_since;
using engram::test::wait_until;
using engram::test::write_file;
using namespace std::chrono_literals;

namespace {

// How many of `subjects` start with `prefix`.
std::size_t count_starting(const std::vector<std::string>& subjects, const std::string& prefix) {
  return static_cast<std::size_t>(
      std::count_if(subjects.begin(), subjects.end(),
                    [&](const std::string& s) { return s.starts_with(prefix); }));
}

// Waits until a commit whose subject starts with `prefix` follows `before`
// and the daemon is idle again; false when that takes longer than `limit`.
bool commit_then_idle(const Sandbox& sandbox, DaemonProcess& daemon, const fs::path& store,
                      const std::optional<std::string>& before, const std::string& prefix,
                      std::chrono::seconds limit) {
  return wait_until(
             [&] { return count_starting(subjects_since(sandbox, store, before), prefix) > 0; },
             limit) &&
         daemon.wait_idle_after(0, 10s);
}

// True when `git status --porcelain` in the store prints nothing.
bool clean(const Sandbox& sandbox, const fs::path& store) {
  const auto status = sandbox.git(store, {"status", "--porcelain"});
  return status.exit_code == 0 && status.out.empty();
}

} // namespace

TEST_CASE(
    "with the daemon, appending past WORKING.md's guard yields a commit bringing it under target") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(
      sandbox, "[guard]\nworking_chars = 900\nworking_target_chars = 600\n");
  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto before = head_of(made.store);

  // One write, as `cat notes >> WORKING.md` makes it.
  std::string notes;
  for (int i = 1; i <= 12; ++i) {
    notes +=
        fmt::format("- 2026-11-{:02}: Looked into the order sync retry path, step {}.\n", i, i);
  }
  {
    std::ofstream out(made.store / "WORKING.md", std::ios::app | std::ios::binary);
    out << notes;
  }
  REQUIRE(engram::count_chars(read_file(made.store / "WORKING.md")) > 900);

  INFO(daemon.log());
  REQUIRE(commit_then_idle(sandbox, daemon, made.store, before, "consolidate(full)", 15s));
  CHECK(engram::count_chars(read_file(made.store / "WORKING.md")) <= 600);
  CHECK(clean(sandbox, made.store));
  const auto subjects = subjects_since(sandbox, made.store, before);
  CHECK(count_starting(subjects, "snapshot") == 1); // the agent's append, on its own
  // Nothing was dropped: what left WORKING.md went to episodic/.
  std::string kept = read_file(made.store / "WORKING.md");
  for (const auto& entry : fs::directory_iterator(made.store / "episodic")) {
    kept += read_file(entry.path());
  }
  for (int i = 1; i <= 12; ++i) {
    CHECK_THAT(kept, Catch::Contains(fmt::format("step {}.", i)));
  }
}

TEST_CASE("with the daemon, CORE.md written past its guard yields a full run that rewrites it") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto before = head_of(made.store);

  // An agent writes CORE.md itself, with more Deep Truths than the guard's 10.
  std::string core = "# Core memory\n\n## Deep Truths\n\n";
  for (int i = 0; i < 12; ++i) {
    core += fmt::format("- Agent-written truth {}.\n", i);
  }
  write_file(made.store / "CORE.md", core);

  REQUIRE(commit_then_idle(sandbox, daemon, made.store, before, "consolidate(full)", 15s));
  const std::string log = daemon.log();
  INFO(log);
  CHECK_THAT(log,
             Catch::Contains("CORE.md is over its guard (12 > 10 truths): full consolidation"));
  // The promotion rule wrote it anew, within its guards; the agent's version is in history.
  const auto status = nlohmann::json::parse(
      sandbox.engram({"status", "--store", made.store.string(), "--json"}).out);
  CHECK(status["guards"]["core_truths"]["over"] == false);
  CHECK(status["guards"]["core_blocks"]["over"] == false);
  CHECK(read_file(made.store / "CORE.md") != core);
  CHECK(clean(sandbox, made.store));
  CHECK(count_starting(subjects_since(sandbox, made.store, before), "snapshot") == 1);
}

TEST_CASE(
    "with the daemon, an edit saved by rename yields one snapshot commit and an updated index") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto before = head_of(made.store);
  const fs::path file = made.store / "semantic" / "sqlite-cache.md";

  // As `sed -i` saves: a temporary in the same folder, renamed over the file.
  std::string text = read_file(file);
  const std::string tags = "tags: [sqlite, cache, migration]";
  const auto at = text.find(tags);
  REQUIRE(at != std::string::npos);
  text.replace(at, tags.size(), "tags: [sqlite, cache, migration, orders]");
  write_file(made.store / "semantic" / "sedX4b9Qz", text);
  fs::rename(made.store / "semantic" / "sedX4b9Qz", file);

  INFO(daemon.log());
  REQUIRE(wait_until([&] { return head_of(made.store) != before; }, 10s));
  REQUIRE(daemon.wait_idle_after(0, 10s));
  const auto subjects = subjects_since(sandbox, made.store, before);
  INFO(fmt::format("{}", fmt::join(subjects, "\n")));
  CHECK(count_starting(subjects, "snapshot") == 1);
  CHECK(count_starting(subjects, "consolidate(lightweight)") == 1);
  CHECK(subjects.size() == 2);
  CHECK_THAT(read_file(made.store / "MEMORY.md"),
             Catch::Contains("`sqlite cache migration orders`"));
  CHECK(clean(sandbox, made.store));

  // engram's own writes (MEMORY.md, .index.json) start no further cycle: the
  // daemon goes quiet. The one bounded wait that is a quiet check.
  const auto head = head_of(made.store);
  const auto runs = daemon.store_status().value("consolidations", 0);
  std::this_thread::sleep_for(1500ms);
  CHECK(head_of(made.store) == head);
  CHECK(daemon.store_status().value("consolidations", 0) == runs);
  CHECK(daemon.stop() == 0);
}

TEST_CASE("with the daemon, each edit of the same file reaches the index, not a remembered entry") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  const fs::path file = made.store / "semantic" / "sqlite-cache.md";
  const std::string original = read_file(file);
  const std::string tags = "tags: [sqlite, cache, migration]";
  REQUIRE(original.find(tags) != std::string::npos);

  INFO(daemon.log());
  for (const std::string added : {"orders", "billing", "orders"}) {
    const auto before = head_of(made.store);
    std::string text = original;
    text.replace(text.find(tags), tags.size(), "tags: [sqlite, cache, migration, " + added + "]");
    write_file(file, text);
    REQUIRE(commit_then_idle(sandbox, daemon, made.store, before, "consolidate(lightweight)", 10s));
    CHECK_THAT(read_file(made.store / "MEMORY.md"),
               Catch::Contains("`sqlite cache migration " + added + "`"));
    CHECK_THAT(read_file(made.store / ".index.json"),
               Catch::Contains("\"migration\", \"" + added + "\"]"));
    CHECK(clean(sandbox, made.store));
  }
  CHECK(daemon.stop() == 0);
}

TEST_CASE(
    "with the daemon, 500 writes across 50 files lose nothing and make a handful of commits") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto before = head_of(made.store);

  std::vector<std::string> bodies(50);
  for (int round = 0; round < 10; ++round) {
    for (int n = 0; n < 50; ++n) {
      bodies[static_cast<std::size_t>(n)] += fmt::format("- Burst fact {} of file {}.\n", round, n);
      write_file(made.store / "semantic" / fmt::format("burst-{:02}.md", n),
                 semantic_memory({"burst", fmt::format("file{}", n)}, "2026-11-20",
                                 bodies[static_cast<std::size_t>(n)]));
    }
  }

  INFO(daemon.log());
  REQUIRE(wait_until([&] { return clean(sandbox, made.store); }, 20s));
  REQUIRE(daemon.wait_idle_after(0, 10s));
  REQUIRE(clean(sandbox, made.store));
  // Every file's last version is what HEAD holds.
  const auto tracked = sandbox.git(made.store, {"ls-files", "semantic"}).out_lines();
  CHECK(std::count_if(tracked.begin(), tracked.end(),
                      [](const std::string& p) { return p.starts_with("semantic/burst-"); }) == 50);
  for (int n : {0, 17, 49}) {
    const auto shown =
        sandbox.git(made.store, {"show", fmt::format("HEAD:semantic/burst-{:02}.md", n)});
    CHECK_THAT(shown.out, Catch::Contains(fmt::format("Burst fact 9 of file {}.", n)));
  }
  const auto subjects = subjects_since(sandbox, made.store, before);
  INFO(fmt::format("{}", fmt::join(subjects, "\n")));
  CHECK(subjects.size() >= 1);
  CHECK(subjects.size() <= 20);
  CHECK_THAT(read_file(made.store / "MEMORY.md"), Catch::Contains("semantic/burst-49.md"));
}

TEST_CASE(
    "with the daemon, an edit that changes no index entry leaves the index, and a hand-edited "
    "index is put back") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  INFO(daemon.log());
  const fs::path file = made.store / "semantic" / "sqlite-cache.md";
  // A first change, for a first index.
  auto before = head_of(made.store);
  write_file(made.store / "semantic" / "queue.md",
             semantic_memory({"queue", "jobs"}, "2026-01-01", "The queue holds 40 jobs.\n"));
  REQUIRE(commit_then_idle(sandbox, daemon, made.store, before, "consolidate(lightweight)", 10s));

  // A line below the summary: the agent's snapshot, and no rebuilt index.
  before = head_of(made.store);
  const std::string index = read_file(made.store / ".index.json");
  const std::string memory = read_file(made.store / "MEMORY.md");
  write_file(file, read_file(file) + "- WAL mode stays on.\n");
  REQUIRE(wait_until([&] { return !subjects_since(sandbox, made.store, before).empty(); }, 10s));
  REQUIRE(daemon.wait_idle_after(0, 10s));
  CHECK(subjects_since(sandbox, made.store, before) ==
        std::vector<std::string>{"snapshot: 1 file changed by the agent"});
  CHECK(read_file(made.store / ".index.json") == index);
  CHECK(read_file(made.store / "MEMORY.md") == memory);

  // Someone edits the generated files, leaving MEMORY.md's mark that it is
  // engram's; no memory changed, and both come back.
  before = head_of(made.store);
  write_file(made.store / ".index.json", "{}\n");
  write_file(made.store / "MEMORY.md", "# Memory index\n\nGenerated by engram; edited by hand.\n");
  REQUIRE(commit_then_idle(sandbox, daemon, made.store, before, "consolidate(lightweight)", 10s));
  CHECK(read_file(made.store / ".index.json") == index);
  CHECK(read_file(made.store / "MEMORY.md") == memory);
  CHECK(clean(sandbox, made.store));
  CHECK(daemon.stop() == 0);
}

TEST_CASE("the daemon picks up a folder moved into the store with files already in it") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto before = head_of(made.store);

  const fs::path staging = sandbox.work("staging") / "imported";
  for (int n = 0; n < 3; ++n) {
    write_file(staging / fmt::format("topic-{}.md", n),
               semantic_memory({"imported", fmt::format("topic{}", n)}, "2026-11-20",
                               fmt::format("- Imported fact {}.\n", n)));
  }
  fs::rename(staging, made.store / "semantic" / "imported");

  INFO(daemon.log());
  REQUIRE(
      wait_until([&] { return head_of(made.store) != before && clean(sandbox, made.store); }, 10s));
  REQUIRE(daemon.wait_idle_after(0, 10s));
  const auto tracked = sandbox.git(made.store, {"ls-files", "semantic/imported"}).out_lines();
  CHECK(tracked.size() == 3);
  CHECK_THAT(read_file(made.store / "MEMORY.md"), Catch::Contains("semantic/imported/topic-2.md"));
}

TEST_CASE("after an inotify queue overflow the daemon rescans and misses nothing") {
  if (std::string(engram::platform::name()) != "linux") {
    WARN("this build has no inotify watcher (cmake/Platform.cmake); not tested");
    return;
  }
  std::ifstream limit_file("/proc/sys/fs/inotify/max_queued_events");
  std::size_t limit = 0;
  if (!(limit_file >> limit) || limit > 100'000) {
    WARN("max_queued_events is unknown or too large to overflow quickly; not tested");
    return;
  }
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  write_file(made.store / "flood" / "a", "a\n");
  REQUIRE(sandbox.git(made.store, {"add", "-A"}).exit_code == 0);
  REQUIRE(sandbox.git(made.store, {"commit", "-qm", "flood"}).exit_code == 0);
  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto before = head_of(made.store);

  // Stopped, the daemon cannot read: the kernel's queue overflows under two
  // events per rename, and the files written meanwhile are in no event.
  daemon.signal(SIGSTOP);
  for (std::size_t i = 0; i < limit / 2 + 100; ++i) {
    fs::rename(made.store / "flood" / (i % 2 == 0 ? "a" : "b"),
               made.store / "flood" / (i % 2 == 0 ? "b" : "a"));
  }
  for (int n = 0; n < 5; ++n) {
    write_file(made.store / "semantic" / fmt::format("after-overflow-{}.md", n),
               semantic_memory({"overflow", fmt::format("n{}", n)}, "2026-11-20",
                               fmt::format("- Written during the overflow, {}.\n", n)));
  }
  daemon.signal(SIGCONT);

  INFO(daemon.log());
  REQUIRE(
      wait_until([&] { return head_of(made.store) != before && clean(sandbox, made.store); }, 15s));
  REQUIRE(daemon.wait_idle_after(0, 10s));
  CHECK_THAT(daemon.log(), Catch::Contains("overflowed"));
  const auto tracked = sandbox.git(made.store, {"ls-files", "semantic"}).out_lines();
  CHECK(std::count_if(tracked.begin(), tracked.end(), [](const std::string& p) {
          return p.starts_with("semantic/after-overflow-");
        }) == 5);
  CHECK_THAT(read_file(made.store / "MEMORY.md"), Catch::Contains("semantic/after-overflow-4.md"));
}

TEST_CASE("with the daemon, a rule's note on a store is logged once for each store it keeps") {
  const Sandbox sandbox;
  const auto first = engram::test::daemon_store(sandbox, "", "", "first");
  const auto second = engram::test::daemon_store(sandbox, "", "", "second");
  DaemonProcess daemon(sandbox, first.store, first.config, {}, {second.store});
  const std::string note = "rule stale-refs: rules.stale-refs.project_root is not set";

  // Two full runs of the first store, neither with anything to commit.
  for (int run = 0; run < 2; ++run) {
    const auto reply = daemon.ask({{"request", "consolidate"}, {"kind", "full"}});
    INFO(reply.dump());
    REQUIRE(reply.value("ok", false));
  }
  // A full run of the second (WORKING.md past its guard): the same rule
  // instance serves it, and it is told too.
  const auto before = head_of(second.store);
  {
    std::ofstream out(second.store / "WORKING.md", std::ios::app | std::ios::binary);
    for (int i = 1; i <= 60; ++i) {
      out << fmt::format("- 2026-11-{:02}: Looked into the invoice export, step {}.\n", i % 28 + 1,
                         i);
    }
  }
  REQUIRE(wait_until(
      [&] {
        return count_starting(subjects_since(sandbox, second.store, before), "consolidate(full)") >
               0;
      },
      15s));
  // The daemon's status speaks for the first store only, so the second's
  // end is waited for in the log: the note comes once its run is done.
  REQUIRE(
      wait_until([&] { return daemon.log().find("[second] " + note) != std::string::npos; }, 10s));

  const std::string log = daemon.log();
  INFO(log);
  const auto count = [&](const std::string& needle) {
    std::size_t n = 0;
    for (auto at = log.find(needle); at != std::string::npos; at = log.find(needle, at + 1)) {
      ++n;
    }
    return n;
  };
  CHECK(count("[first] " + note) == 1);
  CHECK(count("[second] " + note) == 1);
  CHECK(count(note) == 2);
}

TEST_CASE("the daemon lets go of what it keeps of a quiet store, and its next run reads it again") {
  const Sandbox sandbox;
  const auto made =
      engram::test::daemon_store(sandbox, "", "release_after_s = 1\nlog_level = \"debug\"\n");
  DaemonProcess daemon(sandbox, made.store, made.config);
  const fs::path file = made.store / "semantic" / "sqlite-cache.md";
  const std::string original = read_file(file);
  const std::string tags = "tags: [sqlite, cache, migration]";
  REQUIRE(original.find(tags) != std::string::npos);

  std::size_t released = 0;
  for (const std::string added : {"orders", "billing"}) {
    const auto before = head_of(made.store);
    std::string text = original;
    text.replace(text.find(tags), tags.size(), "tags: [sqlite, cache, migration, " + added + "]");
    write_file(file, text);
    INFO(daemon.log());
    REQUIRE(commit_then_idle(sandbox, daemon, made.store, before, "consolidate(lightweight)", 10s));
    CHECK_THAT(read_file(made.store / "MEMORY.md"),
               Catch::Contains("`sqlite cache migration " + added + "`"));
    CHECK(clean(sandbox, made.store));
    // A second after the run, what the daemon keeps of the store is let go.
    const auto lets_go = [&] {
      const auto log = daemon.log();
      std::size_t n = 0;
      for (auto at = log.find("letting go of what is kept"); at != std::string::npos;
           at = log.find("letting go of what is kept", at + 1)) {
        ++n;
      }
      return n;
    };
    REQUIRE(wait_until([&] { return lets_go() == released + 1; }, 10s));
    released = lets_go();
  }
  CHECK(daemon.stop() == 0);
}

TEST_CASE("with the daemon, an index another git held as a commit landed is brought up to HEAD "
          "without waiting for another change") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  // Every commit stops between moving HEAD and writing the index's file.
  DaemonProcess daemon(sandbox, made.store, made.config,
                       {{"ENGRAM_TEST_PAUSE_AT", "before-index-write"}});
  const fs::path lock = made.store / ".git" / "index.lock";
  write_file(made.store / "semantic" / "held-index.md",
             semantic_memory({"index", "lock"}, "2026-11-20", "- The index catches up.\n"));

  // The run's snapshot commit goes on; at its consolidation commit an agent's
  // `git status` takes index.lock, so HEAD moves and the index stays behind.
  for (;;) {
    REQUIRE(daemon.wait_stopped(20s));
    const auto subject = sandbox.git(made.store, {"log", "-1", "--format=%s"}).out;
    if (subject.starts_with("consolidate(")) {
      write_file(lock, "");
      daemon.resume();
      break;
    }
    daemon.resume();
  }
  REQUIRE(wait_until(
      [&] {
        const std::string log = daemon.log();
        return log.find("the index was left behind HEAD") != std::string::npos &&
               log.find("waiting: a git command holds index.lock") != std::string::npos;
      },
      10s));

  // The agent's git is done: nothing else changes, and the index catches up.
  fs::remove(lock);
  const bool caught_up = wait_until(
      [&] {
        if (daemon.wait_stopped(0ms)) {
          daemon.resume(); // a commit of the catch-up run, if it has one
        }
        return !fs::exists(lock) && clean(sandbox, made.store);
      },
      20s);
  CHECK(caught_up);
  CHECK(sandbox.git(made.store, {"ls-files", "semantic/held-index.md"}).out ==
        "semantic/held-index.md\n");
  CHECK_THAT(daemon.log(), Catch::Contains("index-behind"));
  CHECK(daemon.stop() == 0);
}
