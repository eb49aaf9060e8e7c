// Crash recovery with the real binary: a consolidation is killed (SIGKILL,
// through the ENGRAM_TEST_CRASH_AT fault point) at each step of its apply and
// commit; at that moment no claim is lost, and the next run finishes it — the
// store consolidated, every claim present, `git status` empty, `git fsck` clean.
#include "lib/history.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// The exit status of a process killed by SIGKILL, as the test runner reports it.
constexpr int k_killed = 128 + 9;

// A store whose agent files are committed, so a consolidation's first commit is its own.
fs::path committed_store(const Sandbox& sandbox) {
  const fs::path store = make_history_store(sandbox);
  git_out(sandbox, store, {"add", "-A"});
  git_out(sandbox, store, {"commit", "-q", "-m", "agent files"});
  return store;
}

// Runs `engram consolidate` on `store`, killed at `point` when it is not empty.
// Without the removal cap: one test decays 120 episodes at once.
Result consolidate(const Sandbox& sandbox, const fs::path& store, const std::string& point = {}) {
  return engram_with(
      sandbox,
      {"consolidate", "--store", store.string(), "--now", k_history_now, "--allow-removals"},
      {{"ENGRAM_TEST_CRASH_AT", point}});
}

// The temporary files of atomic writes under `store` (`.git` left out).
std::vector<std::string> temporaries(const fs::path& store) {
  std::vector<std::string> found;
  for (const auto& path : files_under(store)) {
    if (path.ends_with(".tmp")) {
      found.push_back(path);
    }
  }
  return found;
}

// Checks a store a consolidation finished in: the expired files gone, every
// claim in the knowledge layers, no working state or temporary left, git sound.
void check_consolidated(const Sandbox& sandbox, const fs::path& store) {
  for (const auto& path : k_history_expired) {
    INFO(path);
    CHECK_FALSE(fs::exists(store / path));
  }
  const std::string knowledge = knowledge_text(store);
  for (const auto& claim : k_history_claims) {
    if (claim != "The staging shop was reset on Friday.") { // not expired: still episodic
      INFO(claim);
      CHECK_THAT(knowledge, Catch::Contains(claim));
    }
  }
  check_every_claim(store);
  CHECK_FALSE(fs::exists(store / ".engram" / "pending.json"));
  CHECK(temporaries(store).empty());
  check_sound(sandbox, store);
}

} // namespace

TEST_CASE(
    "a consolidation killed at any step of its apply and commit is finished by the next run") {
  const std::string point = GENERATE(
      as<std::string>{}, "after-pending", "before-rename-1", "after-write-1", "before-rename-2",
      "after-write-2", "after-write-3", "before-remove", "after-remove-1", "after-remove-2",
      "before-commit", "before-index-write", "after-commit");
  INFO("crash point: " << point);
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  const std::string before = head_of(sandbox, store);

  const auto crashed = consolidate(sandbox, store, point);
  INFO(crashed.out << crashed.err);
  REQUIRE(crashed.exit_code == k_killed);
  // At the moment of the crash, every claim is still on disk somewhere, and
  // the working state says what was under way.
  check_every_claim(store);
  CHECK(fs::exists(store / ".engram" / "pending.json"));
  if (point.starts_with("before-rename")) {
    // Every new content is written and flushed before the first rename.
    CHECK(!temporaries(store).empty());
  }

  const auto again = consolidate(sandbox, store);
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("finished an interrupted consolidate"));
  check_consolidated(sandbox, store);

  // Exactly one consolidation landed: recovered, or the original when its commit was made.
  const auto subjects = git_lines(sandbox, store, {"log", "--format=%s", before + "..HEAD"});
  REQUIRE(subjects.size() == 1);
  if (point == "before-index-write" || point == "after-commit") {
    // HEAD had moved: the commit landed; the index on disk was the old one.
    CHECK(subjects[0].starts_with("consolidate(full):"));
  } else {
    CHECK(subjects[0].starts_with("consolidate(recovered):"));
    const auto message = git_out(sandbox, store, {"log", "-1", "--notes=engram", "--format=%B%N"});
    CHECK_THAT(message, Catch::Contains("- episodic-decay absorbed \"The nightly order sync"));
    CHECK_THAT(message, Catch::Contains("Engram-Recovered: yes"));
    CHECK_THAT(message, Catch::Contains("Engram-Run: full"));
  }
  // And the store is at rest: a third run has nothing to do.
  const auto third = consolidate(sandbox, store);
  CHECK_THAT(third.out, Catch::Contains("nothing to consolidate"));
  CHECK(git_lines(sandbox, store, {"log", "--format=%s", before + "..HEAD"}).size() == 1);
}

TEST_CASE("a crash after the agent's snapshot moved HEAD, before the index was written, is "
          "finished by the next run") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox); // the agent's files are not committed
  const std::string before = head_of(sandbox, store);
  const std::string index_before = read_file(store / ".git" / "index");
  REQUIRE(consolidate(sandbox, store, "before-index-write").exit_code == k_killed);
  // The snapshot is committed; the index on disk is the one from before it.
  const auto committed = git_lines(sandbox, store, {"log", "--format=%s", before + "..HEAD"});
  REQUIRE(committed.size() == 1);
  CHECK(committed[0] == "snapshot: 5 files changed by the agent");
  CHECK(read_file(store / ".git" / "index") == index_before);

  const auto again = consolidate(sandbox, store);
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  // No second snapshot: staging the same files again gave HEAD's tree.
  const auto subjects = git_lines(sandbox, store, {"log", "--format=%s", before + "..HEAD"});
  REQUIRE(subjects.size() == 2);
  CHECK(subjects[1] == "snapshot: 5 files changed by the agent");
  CHECK(subjects[0].starts_with("consolidate(full):"));
  check_consolidated(sandbox, store);
}

TEST_CASE("recovery keeps the bytes of a file the agent changed after the crash, and loses no "
          "claim") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  const std::string before = head_of(sandbox, store);
  REQUIRE(consolidate(sandbox, store, "after-write-1").exit_code == k_killed);

  // The agent edits a file the interrupted plan meant to write but had not yet.
  const fs::path procedural = store / "procedural" / "feedback.md";
  const std::string agent_text = "# Feedback\n\n## Mine\n\n- The agent's own rule.\n";
  write_file(procedural, agent_text);

  const auto again = consolidate(sandbox, store);
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("left as the agent changed it: procedural/feedback.md"));
  // The agent's words are kept; the recovered commit holds none of its file.
  CHECK_THAT(read_file(procedural), Catch::Contains("- The agent's own rule."));
  const auto recovered =
      git_lines(sandbox, store,
                {"log", "--format=%H", "--grep", "^consolidate(recovered)", before + "..HEAD"});
  REQUIRE(recovered.size() == 1);
  const auto files = git_out(sandbox, store, {"show", "--format=", "--name-only", recovered[0]});
  CHECK(files.find("procedural/feedback.md") == std::string::npos);
  for (const auto& path : k_history_expired) {
    CHECK(files.find(path) == std::string::npos); // not removed while a write was left
  }
  // The same run then snapshots the agent and consolidates the rest: nothing lost.
  check_consolidated(sandbox, store);
  CHECK_THAT(read_file(procedural), Catch::Contains("Always pass `limit=250`"));
}

TEST_CASE("a rollback killed midway is finished as a rollback by the next one") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  const std::string before = head_of(sandbox, store);
  REQUIRE(consolidate(sandbox, store).exit_code == 0);
  const std::string consolidation = head_of(sandbox, store);

  const auto crashed = engram_with(sandbox, {"rollback", "--store", store.string(), consolidation},
                                   {{"ENGRAM_TEST_CRASH_AT", "after-write-2"}});
  REQUIRE(crashed.exit_code == k_killed);
  check_every_claim(store);

  const auto again = sandbox.engram({"rollback", "--store", store.string(), consolidation});
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("finished an interrupted rollback"));
  CHECK_THAT(again.out, Catch::Contains("nothing to roll back"));
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%s"}).starts_with("rollback: "));
  CHECK_THAT(git_out(sandbox, store, {"log", "-1", "--format=%B"}),
             Catch::Contains("Reverts: " + consolidation) &&
                 Catch::Contains("Engram-Recovered: yes"));
  CHECK(git_out(sandbox, store, {"diff", "--stat", before, "HEAD"}).empty());
  CHECK_FALSE(fs::exists(store / ".engram" / "pending.json"));
  check_sound(sandbox, store);
}

TEST_CASE("run again with the same relative revision, a killed rollback or restore undoes the "
          "commit it named the first time") {
  // HEAD and HEAD~1 are read as the history was when the command was typed,
  // before the interrupted run is finished: the second `rollback HEAD` is
  // the same rollback, not the undoing of the first one's recovered commit.
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  const std::string before = head_of(sandbox, store);
  REQUIRE(consolidate(sandbox, store).exit_code == 0);
  const std::string consolidation = head_of(sandbox, store);

  // Kills `command` at `point`, runs it again, and checks that the second
  // run finished the first and found nothing left to do (`nothing`).
  const auto killed_then_again = [&](const std::vector<std::string>& command,
                                     const std::string& point, const std::string& operation,
                                     const std::string& nothing) {
    REQUIRE(engram_with(sandbox, command, {{"ENGRAM_TEST_CRASH_AT", point}}).exit_code == k_killed);
    const auto again = sandbox.engram(command);
    INFO(again.out << again.err);
    REQUIRE(again.exit_code == 0);
    CHECK_THAT(again.out,
               Catch::Contains("finished an interrupted " + operation) && Catch::Contains(nothing));
    CHECK(git_lines(sandbox, store, {"rev-parse", "HEAD~1"})[0] == consolidation);
  };

  SECTION("rollback HEAD") {
    killed_then_again({"rollback", "--store", store.string(), "HEAD"}, "after-write-2", "rollback",
                      "nothing to roll back");
    CHECK_THAT(git_out(sandbox, store, {"log", "-1", "--format=%B"}),
               Catch::Contains("Reverts: " + consolidation));
    CHECK(git_out(sandbox, store, {"diff", "--stat", before, "HEAD"}).empty());
  }
  SECTION("restore HEAD~1 -- episodic") {
    killed_then_again({"restore", "--store", store.string(), "HEAD~1", "--", "episodic"},
                      "after-write-1", "restore", "nothing to restore");
    for (const auto& path : k_history_expired) {
      INFO(path);
      CHECK(read_file(store / path) == git_out(sandbox, store, {"show", before + ":" + path}));
    }
  }
  CHECK_FALSE(fs::exists(store / ".engram" / "pending.json"));
  check_every_claim(store);
  check_sound(sandbox, store);
}

TEST_CASE("a consolidation writing a hundred files or more, killed once its working state names "
          "their blobs, is finished from those blobs") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  // 120 expired episodes of one claim each, no two sharing a subject: each
  // claim goes to a new semantic file of its own, so the run writes 120
  // files or more.
  const std::vector<std::string> colours{"amber", "cobalt", "crimson", "olive", "slate", "ivory"};
  const std::vector<std::string> things{"ledger", "beacon", "harbour", "orchard", "quarry"};
  const std::vector<std::string> deeds{"archives", "rotates", "mirrors", "audits"};
  std::vector<std::string> claims;
  for (std::size_t i = 0; claims.size() < 120; ++i) {
    const auto& colour = colours[i % colours.size()];
    const auto& thing = things[(i / colours.size()) % things.size()];
    const auto& deed = deeds[(i / (colours.size() * things.size())) % deeds.size()];
    claims.push_back(fmt::format("The {} {} service {} its {} nightly.", colour, thing, deed,
                                 deed == "audits" ? "journal" : "snapshots"));
    const std::string subject = fmt::format("pk{}{}{}", colour, thing, deed);
    write_file(store / "episodic" / fmt::format("2026-01-{:02}-pack-{:03}.md", 1 + i % 28, i),
               episodic_memory({subject, subject + "run"}, "2026-01-01", "2026-09-01",
                               "# Run\n\n" + claims.back() + "\n"));
  }
  git_out(sandbox, store, {"add", "-A"});
  git_out(sandbox, store, {"commit", "-q", "-m", "agent files"});

  REQUIRE(consolidate(sandbox, store, "after-pending").exit_code == k_killed);
  // Every new content the working state names is in the object database,
  // and nothing of them is in the working tree yet.
  const auto pending = nlohmann::json::parse(read_file(store / ".engram" / "pending.json"));
  std::size_t named = 0;
  for (const auto& file : pending.at("files")) {
    if (file.at("target").is_string()) {
      ++named;
      CHECK(
          sandbox.git(store, {"cat-file", "-e", file.at("target").get<std::string>()}).exit_code ==
          0);
    }
  }
  CHECK(named >= 120);
  CHECK(knowledge_text(store).find(claims.front()) == std::string::npos);

  const auto again = consolidate(sandbox, store);
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("finished an interrupted consolidate"));
  const std::string knowledge = knowledge_text(store);
  for (const auto& claim : claims) {
    INFO(claim);
    CHECK_THAT(knowledge, Catch::Contains(claim));
  }
  CHECK(files_under(store / "episodic").size() < 10); // the 120 decayed
  check_consolidated(sandbox, store);
}
