// A file a merge could not join is half of two versions: git's conflict
// markers in it, or its unmerged entries in the index, stop the run for that
// file with a diagnostic; it is neither committed nor absorbed into, and
// everything else goes on.
#include "lib/history.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// A store whose semantic/shopify-api.md two branches changed on the same
// line, merged with the conflict left in the file (and, `staged`, added to
// the index as it is); MERGE_HEAD is gone, as if the merge was abandoned.
fs::path conflicted_store(const Sandbox& sandbox, bool staged) {
  const fs::path store = make_history_store(sandbox);
  git_out(sandbox, store, {"add", "-A"});
  git_out(sandbox, store, {"commit", "-q", "-m", "agent files"});
  const fs::path file = store / "semantic" / "shopify-api.md";
  const std::string base = read_file(file);
  git_out(sandbox, store, {"checkout", "-q", "-b", "other"});
  write_file(file, base + "- The API allows 40 requests per second.\n");
  git_out(sandbox, store, {"commit", "-q", "-am", "other"});
  git_out(sandbox, store, {"checkout", "-q", "-"});
  write_file(file, base + "- The API allows 2 requests per second.\n");
  git_out(sandbox, store, {"commit", "-q", "-am", "mine"});
  CHECK(sandbox.git(store, {"merge", "-q", "other"}).exit_code != 0); // the conflict
  REQUIRE(read_file(file).find("<<<<<<<") != std::string::npos);
  if (staged) {
    git_out(sandbox, store, {"add", "semantic/shopify-api.md"});
  }
  fs::remove(store / ".git" / "MERGE_HEAD");
  return store;
}

} // namespace

TEST_CASE("a file with conflict markers added to the index is not committed or absorbed into") {
  const Sandbox sandbox;
  const fs::path store = conflicted_store(sandbox, true);
  const std::string conflicted = read_file(store / "semantic" / "shopify-api.md");
  const auto run =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(run.out << run.err);
  CHECK_THAT(run.out + run.err, Catch::Contains("semantic/shopify-api.md:") &&
                                    Catch::Contains("conflict markers"));
  CHECK_THAT(git_out(sandbox, store, {"show", "HEAD:semantic/shopify-api.md"}),
             !Catch::Contains("<<<<<<<"));
  CHECK(read_file(store / "semantic" / "shopify-api.md") == conflicted); // untouched
  // The expired episodes went on: their claims are kept elsewhere.
  check_every_claim(store);
}

TEST_CASE("unmerged index entries are not committed, and the rest of the store is") {
  const Sandbox sandbox;
  const fs::path store = conflicted_store(sandbox, false);
  const std::string before = head_of(sandbox, store);
  const auto run =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(run.out << run.err);
  CHECK_THAT(run.out + run.err, Catch::Contains("semantic/shopify-api.md"));
  CHECK_THAT(git_out(sandbox, store, {"log", "--all", "-p", "--format=%B"}),
             !Catch::Contains("+<<<<<<<"));
  CHECK(head_of(sandbox, store) != before); // the expired episodes were consolidated
  check_every_claim(store);
}
