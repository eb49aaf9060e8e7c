// `engram consolidate` leaves freeing the files it replaced and removed to a
// child process and returns (see engine/held_files.hpp). The test stops that
// child (ENGRAM_TEST_PAUSE_AT=freeing-child) right before it frees them, and
// shows that by then the command has ended with its commit made, its output
// read to the end, and its run lock free: the child holds the replaced and
// removed files and nothing else. Nothing is timed: the test waits for
// states of processes, not for durations.
#include "engine/held_files.hpp"
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"
#include "lib/processes.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fmt/format.h>

namespace fs = std::filesystem;
using namespace engram::test;
using namespace std::chrono_literals;

namespace {

// A freeing child: its id, state letter, and where its descriptors point.
struct Seen {
  pid_t pid = 0;
  char state = 0;
  std::vector<std::string> descriptors;
};

// Every freeing child (of any parent: they outlive the command) whose
// descriptors point under `root`.
std::vector<Seen> freeing_children_under(const fs::path& root) {
  std::vector<Seen> out;
  for (const auto& process : processes_named(engram::engine::k_freeing_child_name)) {
    Seen seen{process.pid, process.state, descriptors_of(process.pid)};
    if (std::any_of(seen.descriptors.begin(), seen.descriptors.end(),
                    [&](const std::string& target) { return target.starts_with(root.string()); })) {
      out.push_back(std::move(seen));
    }
  }
  return out;
}

} // namespace

TEST_CASE("consolidate returns with its commit made and its lock free while a child frees the "
          "files it removed") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  constexpr int k_expired = 100; // more than a command frees itself (64)
  // A hundred distinct queue names (no claim updates another).
  const std::vector<std::string> first{"ka", "mi", "ro", "ve", "su", "la", "to", "ne", "pi", "du"};
  const std::vector<std::string> second{"rel", "ban", "dor", "fix", "gum", "hal", "jot", "kep",
                                        "lun", "mox"};
  const auto queue = [&](int i) { return first[i / 10] + second[i % 10]; };
  for (int i = 0; i < k_expired; ++i) {
    write_file(store / fmt::format("episodic/2026-05-{:02}-{}.md", 1 + i % 28, queue(i)),
               episodic_memory({"queues", "drains"}, "2026-05-01", "2026-06-01",
                               fmt::format("- The {} queue drains every {} minutes.\n", queue(i),
                                           2 + i)));
  }
  const fs::path no_wait = sandbox.work("no-wait.toml");
  write_file(no_wait, "[git]\nlock_wait_s = 0\n");

  const auto consolidated =
      engram_with(sandbox, {"consolidate", "--store", store.string(), "--now", "2026-11-25"},
                  {{"ENGRAM_TEST_PAUSE_AT", engram::engine::k_freeing_child_pause}});
  INFO(consolidated.out << consolidated.err);
  // run() read stdout and stderr to their end: no child holds them.
  REQUIRE(consolidated.exit_code == 0);

  std::vector<Seen> children;
  REQUIRE(wait_until(
      [&] {
        children = freeing_children_under(store);
        return children.size() == 1 && children.front().state == 'T';
      },
      60s));
  // What they hold: the removed episodic files and the files the run
  // replaced (MEMORY.md, .index.json), and nothing of git's or engram's own.
  std::size_t removed = 0;
  for (const auto& child : children) {
    for (const auto& target : child.descriptors) {
      INFO(target);
      CHECK(target.starts_with(store.string() + "/"));
      CHECK(target.ends_with(" (deleted)"));
      CHECK_FALSE(target.starts_with((store / ".git").string()));
      CHECK_FALSE(target.starts_with((store / ".engram").string()));
      removed += target.starts_with((store / "episodic/2026-05-").string()) ? 1 : 0;
    }
  }
  CHECK(removed == k_expired);

  // The command's work is whole while they are stopped: the store is
  // committed, clean and sound, and the lock is free for the next run.
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}).empty());
  CHECK_THAT(git_out(sandbox, store, {"log", "-1", "--format=%s"}),
             Catch::StartsWith("consolidate(full):"));
  for (int i = 0; i < k_expired; ++i) {
    CHECK_THAT(all_text(store), Catch::Contains(fmt::format("The {} queue drains every {} minutes.",
                                                            queue(i), 2 + i)));
  }
  const auto next = sandbox.engram({"--config", no_wait.string(), "consolidate", "--store",
                                    store.string(), "--now", "2026-11-25"});
  INFO(next.out << next.err);
  CHECK(next.exit_code == 0);
  CHECK_THAT(next.out, Catch::Contains("nothing to consolidate"));
  check_sound(sandbox, store);

  // Let go, it and the helpers it makes free the files and end.
  ::kill(children.front().pid, SIGCONT);
  CHECK(wait_until([&] { return freeing_children_under(store).empty(); }, 60s));
}
