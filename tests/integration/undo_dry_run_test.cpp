// `engram rollback --dry-run` and `engram restore --dry-run`: each prints the
// diff the real command would apply, and writes nothing: the same HEAD, a
// clean `git status`, the same bytes in every file.
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::semantic_memory;
using engram::test::write_file;

namespace {

// What git says of the store: HEAD's id and the porcelain status.
std::pair<std::string, std::string> git_state(const Sandbox& sandbox, const fs::path& store) {
  return {sandbox.git(store, {"rev-parse", "HEAD"}).out,
          sandbox.git(store, {"status", "--porcelain"}).out};
}

// A store with one memory committed twice: "page 100" first, then "page 250".
fs::path store_with_two_versions(const Sandbox& sandbox) {
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const fs::path memory = store / "semantic" / "api.md";
  write_file(memory, semantic_memory({"api", "paging"}, "2026-01-05", "The API pages at 100.\n"));
  REQUIRE(sandbox.git(store, {"add", "-A"}).exit_code == 0);
  REQUIRE(sandbox.git(store, {"commit", "-qm", "first"}).exit_code == 0);
  write_file(memory, semantic_memory({"api", "paging"}, "2026-01-05", "The API pages at 250.\n"));
  REQUIRE(sandbox.git(store, {"commit", "-qam", "second"}).exit_code == 0);
  return store;
}

} // namespace

TEST_CASE("rollback --dry-run prints the lines it would change and writes nothing") {
  const Sandbox sandbox;
  const fs::path store = store_with_two_versions(sandbox);
  const auto before = git_state(sandbox, store);
  const auto bytes = read_file(store / "semantic" / "api.md");

  const auto dry = sandbox.engram({"rollback", "--dry-run", "--store", store.string(), "HEAD"});
  INFO(dry.out << dry.err);
  CHECK(dry.exit_code == 0);
  CHECK_THAT(dry.out, Catch::Contains("--- a/semantic/api.md"));
  CHECK_THAT(dry.out, Catch::Contains("\n-The API pages at 250.\n"));
  CHECK_THAT(dry.out, Catch::Contains("\n+The API pages at 100.\n"));
  CHECK_THAT(dry.out, Catch::Contains("dry run: nothing was written"));
  CHECK(git_state(sandbox, store) == before);
  CHECK(before.second.empty());
  CHECK(read_file(store / "semantic" / "api.md") == bytes);

  const auto json =
      sandbox.engram({"rollback", "--dry-run", "--json", "--store", store.string(), "HEAD"});
  const auto parsed = nlohmann::json::parse(json.out);
  CHECK(parsed["dry_run"] == true);
  CHECK(parsed["commit"].is_null());
  CHECK_THAT(parsed["diff"].get<std::string>(), Catch::Contains("+The API pages at 100."));
  REQUIRE(parsed["changes"].size() == 1);
  CHECK(parsed["changes"][0]["path"] == "semantic/api.md");
  CHECK(git_state(sandbox, store) == before);

  // The real rollback then makes exactly the change the dry run showed.
  REQUIRE(sandbox.engram({"rollback", "--store", store.string(), "HEAD"}).exit_code == 0);
  CHECK_THAT(read_file(store / "semantic" / "api.md"), Catch::Contains("pages at 100."));
}

TEST_CASE("restore --dry-run prints the lines it would bring back and writes nothing") {
  const Sandbox sandbox;
  const fs::path store = store_with_two_versions(sandbox);
  // An uncommitted edit of the agent's: a real restore would commit it first.
  write_file(store / "WORKING.md", read_file(store / "WORKING.md") + "- [ ] note\n");
  const auto before = git_state(sandbox, store);

  const auto dry = sandbox.engram(
      {"restore", "--dry-run", "--store", store.string(), "HEAD~1", "--", "semantic/api.md"});
  INFO(dry.out << dry.err);
  CHECK(dry.exit_code == 0);
  CHECK_THAT(dry.out, Catch::Contains("\n-The API pages at 250.\n"));
  CHECK_THAT(dry.out, Catch::Contains("\n+The API pages at 100.\n"));
  CHECK_THAT(dry.out, Catch::Contains("dry run: nothing was written"));
  CHECK(git_state(sandbox, store) == before);
  CHECK(before.second == " M WORKING.md\n");
  CHECK_THAT(read_file(store / "semantic" / "api.md"), Catch::Contains("pages at 250."));
}
