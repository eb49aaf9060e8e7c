// Two `engram consolidate` on one store never both apply: the run lock makes
// the second wait for the first (and then find nothing left to do) or, when
// it may not wait, say the store is busy and touch nothing. The runs are put
// where the test wants them with ENGRAM_TEST_PAUSE_AT: each stops itself
// (SIGSTOP) at a named point, the test sees the stop with waitpid(WUNTRACED),
// and lets it go on with SIGCONT. Nothing is timed.
#include "lib/history.hpp"
#include "lib/paused_run.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// The consolidation commits of the store's history (snapshots and init left out).
std::vector<std::string> consolidations(const Sandbox& sandbox, const fs::path& store) {
  std::vector<std::string> found;
  for (const auto& subject : git_lines(sandbox, store, {"log", "--format=%s"})) {
    if (subject.starts_with("consolidate(")) {
      found.push_back(subject);
    }
  }
  return found;
}

// `consolidate` of `store` at the history tests' date, with `extra` options first.
std::vector<std::string> consolidate_args(const fs::path& store,
                                          const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = extra;
  for (const char* arg : {"consolidate", "--store"}) {
    args.emplace_back(arg);
  }
  args.push_back(store.string());
  args.emplace_back("--now");
  args.emplace_back(k_history_now);
  return args;
}

} // namespace

TEST_CASE("a consolidation that may not wait is told the store is busy while another applies, "
          "and changes nothing") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const fs::path no_wait = sandbox.work("no-wait.toml");
  write_file(no_wait, "[git]\nlock_wait_s = 0\n");

  // The first has written its files and stops before committing them.
  Run first(sandbox, "first", consolidate_args(store), "before-commit");
  REQUIRE(first.wait_paused());
  const auto during = memory_files(store);
  const std::string head = head_of(sandbox, store);

  const auto second = sandbox.engram(consolidate_args(store, {"--config", no_wait.string()}));
  INFO(second.out << second.err);
  CHECK(second.exit_code == 1);
  CHECK_THAT(second.err, Catch::Contains("cannot lock the store (another engram run is working "
                                         "on it)"));
  // It wrote nothing, committed nothing, and left the first one's work alone.
  CHECK(memory_files(store) == during);
  CHECK(head_of(sandbox, store) == head);

  first.resume();
  const auto done = first.finish();
  INFO(done.out << done.err);
  REQUIRE(done.exit_code == 0);
  CHECK(consolidations(sandbox, store).size() == 1);
  for (const auto& expired : k_history_expired) {
    CHECK_FALSE(fs::exists(store / expired));
  }
  check_every_claim(store);
  check_sound(sandbox, store);
}

TEST_CASE("a consolidation started while another applies waits for it, then has nothing left "
          "to do") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);

  Run first(sandbox, "first", consolidate_args(store), "before-commit");
  REQUIRE(first.wait_paused());
  // The second stops where it finds the store locked: it reached the lock,
  // found it held, and is about to wait.
  Run second(sandbox, "second", consolidate_args(store, {"--log-level", "info"}), "run-lock-busy");
  REQUIRE(second.wait_paused());
  const std::string head = head_of(sandbox, store);

  // The first finishes while the second waits; the second then takes the lock.
  first.resume();
  const auto first_done = first.finish();
  INFO(first_done.out << first_done.err);
  REQUIRE(first_done.exit_code == 0);
  CHECK_THAT(first_done.out, Catch::Contains("consolidate(full):"));
  const std::string consolidated = head_of(sandbox, store);
  CHECK(consolidated != head);

  second.resume();
  const auto second_done = second.finish();
  INFO(second_done.out << second_done.err);
  REQUIRE(second_done.exit_code == 0);
  CHECK_THAT(second_done.err, Catch::Contains("waiting for another engram run to finish"));
  CHECK_THAT(second_done.out, Catch::Contains("nothing to consolidate"));

  // One consolidation commit, and nothing after it.
  CHECK(consolidations(sandbox, store).size() == 1);
  CHECK(head_of(sandbox, store) == consolidated);
  check_every_claim(store);
  check_sound(sandbox, store);
}

TEST_CASE("two consolidations started at once make one consolidation commit between them") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  // No pause: whichever takes the lock first applies, the other waits and finds nothing to do.
  Run a(sandbox, "a", consolidate_args(store));
  Run b(sandbox, "b", consolidate_args(store));
  const auto a_done = a.finish();
  const auto b_done = b.finish();
  INFO(a_done.out << a_done.err << b_done.out << b_done.err);
  CHECK(a_done.exit_code == 0);
  CHECK(b_done.exit_code == 0);
  const bool a_applied = a_done.out.find("consolidate(full):") != std::string::npos;
  const bool b_applied = b_done.out.find("consolidate(full):") != std::string::npos;
  CHECK(a_applied != b_applied);
  CHECK_THAT((a_applied ? b_done : a_done).out, Catch::Contains("nothing to consolidate"));
  CHECK(consolidations(sandbox, store).size() == 1);
  check_every_claim(store);
  check_sound(sandbox, store);
}

TEST_CASE("a consolidation's sweep of left-behind temporaries leaves alone the one an `engram "
          "append` is about to rename into place") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const std::string note = "Appended while a consolidation swept the store's temporaries.";

  // The append has written and flushed its temporary of WORKING.md and stops
  // before the rename: the moment a run's recovery, in another process,
  // looks for temporaries an interrupted run left.
  Run append(sandbox, "append", {"append", "--store", store.string(), "--now", k_history_now, note},
             "atomic-write-before-rename");
  REQUIRE(append.wait_paused());
  const auto consolidated = sandbox.engram(consolidate_args(store, {"--log-level", "info"}));
  INFO(consolidated.out << consolidated.err);
  REQUIRE(consolidated.exit_code == 0);
  CHECK_THAT(consolidated.out, Catch::Contains("consolidate(full):"));
  CHECK_THAT(consolidated.err, !Catch::Contains("a temporary file an interrupted run left"));

  append.resume();
  const auto appended = append.finish();
  INFO(appended.out << appended.err);
  REQUIRE(appended.exit_code == 0);
  CHECK_THAT(read_file(store / "WORKING.md"), Catch::Contains(note));
  // The appended note is the agent's change, for the next run to commit; nothing else is left.
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}) == " M WORKING.md\n");
  check_every_claim(store);
}
