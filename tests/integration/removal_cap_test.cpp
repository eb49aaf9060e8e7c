// The removal cap: a consolidation that would remove a large share of a
// store's memory files commits nothing, says what it would remove and names
// the flag that lets it through; an ordinary day's decay is not stopped.
#include "lib/history.hpp"
#include "lib/runs.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

constexpr const char* k_now = "2026-11-22";

// Writes `n` expired episodes, each with a claim of its own.
void write_expired(const fs::path& store, int n) {
  for (int i = 0; i < n; ++i) {
    const auto name = "2026-05-" + std::string(i % 28 < 9 ? "0" : "") + std::to_string(i % 28 + 1) +
                      "-note-" + std::to_string(i) + ".md";
    write_file(store / "episodic" / name,
               episodic_memory({"batch", "topic" + std::to_string(i)}, "2026-05-01", "2026-06-01",
                               "- Batch job " + std::to_string(i) + " exports shard " +
                                   std::to_string(i) + " at night.\n"));
  }
}

} // namespace

TEST_CASE("a consolidation that would remove most of the store commits nothing and says how to "
          "proceed") {
  const Sandbox sandbox;
  const auto store = new_store(sandbox);
  write_expired(store, 120);
  const auto before = memory_files(store);

  const auto stopped = sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now});
  CHECK(stopped.exit_code == 1);
  CHECK_THAT(stopped.err, Catch::Contains("would remove 120 of"));
  CHECK_THAT(stopped.err, Catch::Contains("nothing was committed"));
  CHECK_THAT(stopped.err, Catch::Contains("episodic/2026-05-01-note-0.md"));
  CHECK_THAT(stopped.err, Catch::Contains("engram consolidate --allow-removals --store " +
                                          store.string()));
  // The agent's files were committed as a snapshot; the consolidation was not.
  CHECK(memory_files(store) == before);
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%s"}).starts_with("snapshot:"));

  // The flag lets that one run through; every claim is kept.
  const auto through = sandbox.engram(
      {"consolidate", "--store", store.string(), "--now", k_now, "--allow-removals"});
  INFO(through.out << through.err);
  REQUIRE(through.exit_code == 0);
  const std::string text = all_text(store);
  for (int i = 0; i < 120; ++i) {
    CHECK_THAT(text, Catch::Contains("Batch job " + std::to_string(i) + " exports shard"));
  }
  check_sound(sandbox, store);
}

TEST_CASE("an ordinary day's decay passes the removal cap, and the cap can be set") {
  const Sandbox sandbox;
  const auto store = new_store(sandbox);
  write_expired(store, 12);
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now});
  CHECK(files_under(store / "episodic").size() <= 1); // .gitkeep at most

  // A cap of 5 and a share of 10%: twelve more is over both.
  const auto capped = sandbox.work("capped");
  const fs::path config = sandbox.work("engram.toml");
  write_file(config, "[guard]\nmax_removals_per_run = 5\nmax_removals_share = 0.1\n");
  REQUIRE(sandbox.engram({"--config", config.string(), "init", capped.string()}).exit_code == 0);
  write_expired(capped, 12);
  const auto stopped = sandbox.engram(
      {"--config", config.string(), "consolidate", "--store", capped.string(), "--now", k_now});
  CHECK(stopped.exit_code == 1);
  CHECK_THAT(stopped.err, Catch::Contains("guard.max_removals_per_run (5)"));
}
