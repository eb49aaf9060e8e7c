// An undo holds: after `engram rollback` (or `restore`) the rules leave the
// files it brought back as they are, so the next consolidation does not redo
// what was undone, until one of those files changes. The hold is read from
// history alone, so it holds in a fresh process and in a clone, and `engram
// status` and `health` list it.
#include "lib/history.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// A full consolidation of `store` at k_history_now.
Result consolidate(const Sandbox& sandbox, const fs::path& store) {
  return ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_history_now});
}

// The values of trailer `key` in HEAD's message, one per line.
std::vector<std::string> head_trailers(const Sandbox& sandbox, const fs::path& store,
                                       const std::string& key) {
  return git_lines(sandbox, store,
                   {"log", "-1", "--format=%(trailers:key=" + key + ",valueonly,separator=%x0a)"});
}

// `engram status --json` of `store`.
nlohmann::json status_of(const Sandbox& sandbox, const fs::path& store) {
  return nlohmann::json::parse(
      ok(sandbox, {"status", "--store", store.string(), "--json", "--now", k_history_now})
          .out);
}

// A store whose consolidation (two episodes decayed) was rolled back.
struct RolledBack {
  fs::path store;
  std::string rollback; // HEAD: the rollback commit
};

RolledBack rolled_back(const Sandbox& sandbox) {
  const auto store = make_history_store(sandbox);
  consolidate(sandbox, store);
  for (const auto& path : k_history_expired) {
    REQUIRE_FALSE(fs::exists(store / path));
  }
  ok(sandbox, {"rollback", "--store", store.string(), "HEAD"});
  for (const auto& path : k_history_expired) {
    REQUIRE(fs::exists(store / path));
  }
  return {store, head_of(sandbox, store)};
}

} // namespace

TEST_CASE("a rolled-back decay is not redone, in a new process or a clone, until a file changes") {
  const Sandbox sandbox;
  const auto [store, rollback] = rolled_back(sandbox);

  // The rollback names what it holds: the episodes and the files they went
  // into, never the generated index.
  const auto held = head_trailers(sandbox, store, "Engram-Hold");
  for (const auto& path : k_history_expired) {
    CHECK(std::find(held.begin(), held.end(), path) != held.end());
  }
  CHECK(std::find(held.begin(), held.end(), "semantic/shopify-api.md") != held.end());
  CHECK(std::find(held.begin(), held.end(), "MEMORY.md") == held.end());
  CHECK(std::find(held.begin(), held.end(), ".index.json") == held.end());

  // The next runs redo nothing: the held files stay as the rollback left
  // them (the first run may rebuild the generated index), and a second run
  // has nothing to do.
  auto files = memory_files(store);
  consolidate(sandbox, store);
  for (const auto& path : held) {
    INFO(path);
    CHECK(memory_files(store)[path] == files[path]);
  }
  const std::string settled = head_of(sandbox, store);
  consolidate(sandbox, store);
  CHECK(head_of(sandbox, store) == settled);

  // status and health list the hold; the held episodes wait, marked.
  const auto status = status_of(sandbox, store);
  REQUIRE(status["holds"].size() == 1);
  CHECK(status["holds"][0]["undo"] == rollback);
  auto sorted = held;
  std::sort(sorted.begin(), sorted.end());
  CHECK(status["holds"][0]["paths"].get<std::vector<std::string>>() == sorted);
  const auto table =
      ok(sandbox, {"status", "--store", store.string(), "--now", k_history_now}).out;
  CHECK_THAT(table, Catch::Contains(k_history_expired[0] + "  (held by an undo)"));
  CHECK_THAT(table, Catch::Contains(rollback.substr(0, 12)));
  const auto health = nlohmann::json::parse(
      ok(sandbox, {"health", "--store", store.string(), "--json", "--now", k_history_now})
          .out);
  REQUIRE(health["holds"].size() == 1);
  CHECK(health["holds"][0]["undo"] == rollback);

  // A clone carries the hold: it is in history, not in engram's state.
  const fs::path clone = sandbox.work("clone");
  const auto cloned = sandbox.git(store.parent_path(), {"clone", "-q", store.string(), clone.string()});
  REQUIRE(cloned.exit_code == 0);
  consolidate(sandbox, clone);
  CHECK(head_of(sandbox, clone) == settled);
  CHECK(status_of(sandbox, clone)["holds"].size() == 1);

  // The agent edits one held episode: the hold ends, and the run decays both.
  const fs::path edited = store / k_history_expired[1];
  write_file(edited, read_file(edited) + "- Webhook retries back off for 48 hours.\n");
  consolidate(sandbox, store);
  for (const auto& path : k_history_expired) {
    CHECK_FALSE(fs::exists(store / path));
  }
  CHECK(status_of(sandbox, store)["holds"].empty());
  CHECK_THAT(all_text(store), Catch::Contains("Webhook retries back off for 48 hours."));
  check_every_claim(store);
  check_sound(sandbox, store);
}

TEST_CASE("while a hold lasts the other files are consolidated, and each commit names the hold") {
  const Sandbox sandbox;
  const auto [store, rollback] = rolled_back(sandbox);
  // A new expired episode about something else decays as usual.
  const std::string fresh = "episodic/2026-07-01-backups.md";
  write_file(store / fresh,
             episodic_memory({"backups", "postgres"}, "2026-07-01", "2026-08-01",
                             "- Nightly Postgres backups are kept for 30 days.\n"));
  consolidate(sandbox, store);
  CHECK_FALSE(fs::exists(store / fresh));
  for (const auto& path : k_history_expired) {
    CHECK(fs::exists(store / path));
  }
  CHECK(head_trailers(sandbox, store, "Engram-Holding") == std::vector<std::string>{rollback});
  CHECK_THAT(all_text(store), Catch::Contains("Nightly Postgres backups are kept for 30 days."));

  // The hold is found again past that consolidation commit, and still holds.
  const std::string head = head_of(sandbox, store);
  consolidate(sandbox, store);
  CHECK(head_of(sandbox, store) == head);
  CHECK(status_of(sandbox, store)["holds"].size() == 1);
  check_sound(sandbox, store);
}

TEST_CASE("a restored episode stays until it changes") {
  const Sandbox sandbox;
  const auto store = make_history_store(sandbox);
  consolidate(sandbox, store);
  const auto before = git_lines(sandbox, store, {"rev-parse", "HEAD~1"})[0];
  const std::string path = k_history_expired[0];
  ok(sandbox, {"restore", "--store", store.string(), before, "--", path});
  CHECK(head_trailers(sandbox, store, "Engram-Hold") == std::vector<std::string>{path});
  const std::string restored = read_file(store / path);
  consolidate(sandbox, store);
  CHECK(read_file(store / path) == restored);
  const std::string head = head_of(sandbox, store);
  consolidate(sandbox, store);
  CHECK(head_of(sandbox, store) == head);
}
