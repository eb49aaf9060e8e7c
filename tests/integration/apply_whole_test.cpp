// A consolidation's changes land all or nothing: WORKING.md's items moved to
// the day's episodic file are never taken out of WORKING.md while the
// episodic file keeps an agent's bytes. The run is paused at a rename (the
// real binary, ENGRAM_TEST_PAUSE_AT), the agent writes, the run goes on.
#include "lib/history.hpp"
#include "lib/occurrences.hpp"
#include "lib/paused_run.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <functional>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

constexpr const char* k_today = "2026-11-22";

// The move's target: the day's episodic file.
fs::path target_of(const fs::path& store) {
  return store / "episodic" / (std::string(k_today) + "-working-memory.md");
}

// A store whose WORKING.md is far over its guard: a consolidation moves
// most of its items into episodic/<today>-working-memory.md. Its items.
std::vector<std::string> overflowing_working(const Sandbox& sandbox, const fs::path& store) {
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  std::string working = "---\ntype: working\ncreated: 2026-10-01\n---\n# Working memory\n\n"
                        "## Current focus\n";
  std::vector<std::string> items;
  for (int i = 0; i < 60; ++i) {
    items.push_back(fmt::format("- 2026-10-{:02}: Observed that batch {} of the import took longer "
                                "than the one before",
                                i % 28 + 1, i));
    working += items.back() + "\n";
  }
  write_file(store / "WORKING.md", working);
  git_out(sandbox, store, {"add", "-A"});
  git_out(sandbox, store, {"commit", "-q", "-m", "agent's working memory"});
  return items;
}

// Every item of `items` is in WORKING.md or the day's episodic file, once.
void check_each_item_once(const fs::path& store, const std::vector<std::string>& items) {
  const fs::path moved_to = target_of(store);
  const std::string both = read_file(store / "WORKING.md") +
                           (fs::exists(moved_to) ? read_file(moved_to) : std::string());
  for (const auto& item : items) {
    INFO(item);
    CHECK(occurrences(both, item + "\n") == 1);
  }
}

// A consolidation paused at `pause`, where the agent writes its own note into
// the move's target (after `while_paused` has looked), then let go on; how it ended.
Result agent_writes_at(const Sandbox& sandbox, const fs::path& store, const std::string& pause,
                       const std::function<void()>& while_paused = {}) {
  Run run(sandbox, "run", {"consolidate", "--store", store.string(), "--now", k_today}, pause);
  REQUIRE(run.wait_paused());
  if (while_paused) {
    while_paused();
  }
  write_file(target_of(store),
             "---\ntype: episodic\ncreated: 2026-11-22\n---\n- The agent's own note.\n");
  run.resume();
  return run.finish();
}

} // namespace

TEST_CASE("an agent's write to a move's target before the first rename defers the whole move") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  const auto items = overflowing_working(sandbox, store);
  const std::string working = read_file(store / "WORKING.md");
  const fs::path target = target_of(store);
  const auto done = agent_writes_at(sandbox, store, "before-rename-1");
  INFO(done.out << done.err);
  CHECK(done.exit_code == 0);
  // Nothing of the plan landed: WORKING.md holds every item, the agent's file its note.
  CHECK(read_file(store / "WORKING.md") == working);
  CHECK_THAT(read_file(target), Catch::Contains("The agent's own note."));
  check_each_item_once(store, items);

  // The next run makes the move whole, into the agent's file.
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_today});
  check_each_item_once(store, items);
  CHECK_THAT(read_file(target), Catch::Contains("The agent's own note."));
  CHECK(read_file(store / "WORKING.md").size() < working.size());
  check_sound(sandbox, store);
}

TEST_CASE("an agent's write to a file after others were renamed undoes those renames") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  const auto items = overflowing_working(sandbox, store);
  const std::string working = read_file(store / "WORKING.md");
  const fs::path target = target_of(store);
  // The plan's writes in the order they are renamed; the move's target is the last.
  const auto planned = nlohmann::json::parse(ok(sandbox, {"consolidate", "--store", store.string(),
                                                          "--now", k_today, "--dry-run", "--json"})
                                                 .out);
  std::vector<std::string> writes;
  for (const auto& change : planned["changes"]) {
    if (change.value("action", "") != "remove") {
      writes.push_back(change["path"]);
    }
  }
  REQUIRE(writes.size() >= 2);
  REQUIRE(writes.back() == fs::relative(target, store).string());

  const auto done =
      agent_writes_at(sandbox, store, fmt::format("before-rename-{}", writes.size()), [&] {
        // WORKING.md is renamed already: the move has half landed.
        REQUIRE(read_file(store / "WORKING.md") != working);
      });
  INFO(done.out << done.err);
  CHECK(done.exit_code == 0);
  CHECK(read_file(store / "WORKING.md") == working);
  CHECK_THAT(read_file(target), Catch::Contains("The agent's own note."));
  check_each_item_once(store, items);
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_today});
  check_each_item_once(store, items);
  check_sound(sandbox, store);
}
