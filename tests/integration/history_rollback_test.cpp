// `engram rollback` and `engram restore` with the real binary and the real
// git: each undoes with a new commit (history is never rewritten), writes
// through the same safe path as a consolidation, and when it cannot do its
// work it says why, naming the files, and changes nothing.
#include "lib/history.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// A store after one consolidation, and the commit just before that consolidation.
struct Consolidated {
  fs::path store;
  std::string before;        // the agent's snapshot
  std::string consolidation; // HEAD
};

// Makes the store, consolidates it, and records the two commits.
Consolidated consolidated_store(const Sandbox& sandbox) {
  Consolidated out{make_history_store(sandbox), {}, {}};
  const auto result =
      sandbox.engram({"consolidate", "--store", out.store.string(), "--now", k_history_now});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  out.consolidation = head_of(sandbox, out.store);
  out.before = git_lines(sandbox, out.store, {"rev-parse", "HEAD~1"})[0];
  return out;
}

// Runs engram, which must succeed.
Result engram_ok(const Sandbox& sandbox, const std::vector<std::string>& args) {
  const auto result = sandbox.engram(args);
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  return result;
}

} // namespace

TEST_CASE("rollback undoes a consolidation with a new revert commit and brings its files back") {
  const Sandbox sandbox;
  const auto [store, before, consolidation] = consolidated_store(sandbox);
  const auto result = engram_ok(sandbox, {"rollback", "--store", store.string(), consolidation});
  CHECK_THAT(result.out, Catch::Contains("rolled back " + consolidation.substr(0, 12)));

  // A new commit on top; the consolidation is still in the history.
  const auto subjects = git_lines(sandbox, store, {"log", "--format=%s"});
  REQUIRE(subjects.size() == 4);
  CHECK(subjects[0] == "rollback: " + subjects[1]);
  CHECK(git_lines(sandbox, store, {"rev-parse", "HEAD~1"})[0] == consolidation);
  CHECK(git_out(sandbox, store,
                {"log", "-1", "--format=%(trailers:key=Engram-Run,valueonly,separator=)"}) ==
        "rollback\n");
  CHECK(git_out(sandbox, store,
                {"log", "-1", "--format=%(trailers:key=Reverts,valueonly,separator=)"}) ==
        consolidation + "\n");

  // The store is exactly as it was before the consolidation.
  CHECK(git_out(sandbox, store, {"diff", "--stat", before, "HEAD"}).empty());
  for (const auto& path : k_history_expired) {
    INFO(path);
    CHECK(read_file(store / path) == git_out(sandbox, store, {"show", before + ":" + path}));
  }
  check_every_claim(store);
  check_sound(sandbox, store);
}

TEST_CASE("rollback stops, names the files and changes nothing when later changes touch the "
          "same lines") {
  const Sandbox sandbox;
  const auto [store, before, consolidation] = consolidated_store(sandbox);
  // Someone edits the very line the consolidation absorbed, and commits it.
  const fs::path semantic = store / "semantic" / "shopify-api.md";
  std::string text = read_file(semantic);
  const std::string claim = "The nightly order sync timed out after 30 minutes.";
  REQUIRE(text.find(claim) != std::string::npos);
  text.replace(text.find(claim), claim.size(),
               "The nightly order sync timed out after 45 minutes.");
  write_file(semantic, text);
  git_out(sandbox, store, {"commit", "-q", "-am", "correct the timeout"});
  const std::string head = head_of(sandbox, store);
  const auto files = memory_files(store);

  const auto result = sandbox.engram({"rollback", "--store", store.string(), consolidation});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("later changes touch the same lines in"));
  CHECK_THAT(result.err, Catch::Contains("semantic/shopify-api.md"));
  CHECK_THAT(result.err, Catch::Contains("nothing was changed"));
  CHECK(head_of(sandbox, store) == head);
  CHECK(memory_files(store) == files);
  check_sound(sandbox, store);
}

TEST_CASE("rollback of a snapshot undoes the agent's edit, and the first commit is refused") {
  const Sandbox sandbox;
  const auto [store, before, consolidation] = consolidated_store(sandbox);
  write_file(store / "semantic" / "scratch.md",
             semantic_memory({"scratch", "notes"}, "2026-11-21", "- A note made by mistake.\n"));
  engram_ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_history_now});
  const auto snapshot =
      git_lines(sandbox, store, {"log", "--format=%H", "--grep", "^snapshot: 1 file"});
  REQUIRE(snapshot.size() == 1);

  engram_ok(sandbox, {"rollback", "--store", store.string(), snapshot[0].substr(0, 10)});
  CHECK_FALSE(fs::exists(store / "semantic" / "scratch.md"));
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%s"}) ==
        "rollback: snapshot: 1 file changed by the agent\n");
  check_sound(sandbox, store);

  const std::string head = head_of(sandbox, store);
  const auto root = git_lines(sandbox, store, {"rev-list", "--max-parents=0", "HEAD"})[0];
  const auto refused = sandbox.engram({"rollback", "--store", store.string(), root});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("first commit"));
  CHECK(head_of(sandbox, store) == head);
}

TEST_CASE("restore brings a removed file back as it was, as a new commit, removing nothing") {
  const Sandbox sandbox;
  const auto [store, before, consolidation] = consolidated_store(sandbox);
  const std::string path = k_history_expired[1];
  REQUIRE_FALSE(fs::exists(store / path));
  const auto files_before = memory_files(store);

  const auto result =
      engram_ok(sandbox, {"restore", "--store", store.string(), before, "--", path});
  CHECK_THAT(result.out, Catch::Contains("restored 1 file"));
  CHECK(read_file(store / path) == git_out(sandbox, store, {"show", before + ":" + path}));
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%s"}) ==
        "restore: 1 file as at " + before.substr(0, 12) + "\n");
  CHECK(git_out(sandbox, store,
                {"log", "-1", "--format=%(trailers:key=Restores,valueonly,separator=)"}) ==
        before + "\n");
  CHECK(git_out(sandbox, store, {"show", "--format=", "--name-status", "HEAD"}) ==
        "A\t" + path + "\n");
  // Every other file is as it was: a restore removes nothing.
  auto files_after = memory_files(store);
  files_after.erase(path);
  CHECK(files_after == files_before);
  CHECK(git_lines(sandbox, store, {"rev-parse", "HEAD~1"})[0] == consolidation);
  check_sound(sandbox, store);

  // Restoring it again has nothing to do and makes no commit.
  const std::string head = head_of(sandbox, store);
  const auto again = engram_ok(sandbox, {"restore", "--store", store.string(), before, "--", path});
  CHECK_THAT(again.out, Catch::Contains("nothing to restore"));
  CHECK(head_of(sandbox, store) == head);
}

TEST_CASE("restore of a folder brings back every file it had, and refuses what it cannot do") {
  const Sandbox sandbox;
  const auto [store, before, consolidation] = consolidated_store(sandbox);
  engram_ok(sandbox, {"restore", "--store", store.string(), before, "--", "episodic/"});
  for (const auto& path : k_history_expired) {
    INFO(path);
    CHECK(read_file(store / path) == git_out(sandbox, store, {"show", before + ":" + path}));
  }
  check_sound(sandbox, store);

  const std::string head = head_of(sandbox, store);
  const auto files = memory_files(store);
  for (const auto& bad : std::vector<std::string>{"semantic/never-there.md", "../outside.md",
                                                  ".git/config", sandbox.work("elsewhere.md")}) {
    INFO(bad);
    const auto refused = sandbox.engram({"restore", "--store", store.string(), before, "--", bad});
    CHECK(refused.exit_code == 1);
    CHECK_THAT(refused.err, Catch::Contains("nothing was changed"));
  }
  const auto no_rev = sandbox.engram({"restore", "--store", store.string(), "nope", "--", "x.md"});
  CHECK(no_rev.exit_code == 1);
  CHECK(head_of(sandbox, store) == head);
  CHECK(memory_files(store) == files);
}
