// Convergence: one full consolidation reaches the fixed point. A second run
// right after a first finds nothing to do and makes no commit, on the example
// store and on stores from bench/'s generator (claims that share sentence
// shapes but not subjects, planted duplicates, solutions, expired episodes).
#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <string>

namespace fs = std::filesystem;
using engram::test::Sandbox;

namespace {

constexpr const char* k_now = "2026-11-22";

// How many commits the store's history holds.
std::string commit_count(const Sandbox& sandbox, const fs::path& store) {
  return sandbox.git(store, {"rev-list", "--count", "HEAD"}).out;
}

// Runs two full consolidations and checks the second changed nothing. The
// generated stores decay most of their files at once: past the removal cap.
void check_converges(const Sandbox& sandbox, const fs::path& store) {
  const auto first = sandbox.engram(
      {"consolidate", "--store", store.string(), "--now", k_now, "--allow-removals"});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  const auto after_first = commit_count(sandbox, store);
  const auto second = sandbox.engram(
      {"consolidate", "--store", store.string(), "--now", k_now, "--allow-removals"});
  INFO("second run:\n" << second.out << second.err);
  REQUIRE(second.exit_code == 0);
  CHECK_THAT(second.out, Catch::Contains("nothing to consolidate"));
  CHECK(commit_count(sandbox, store) == after_first);
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());
}

} // namespace

TEST_CASE("a second consolidation of the example store finds nothing to do") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox
              .engram({"init", "--example", std::string(ENGRAM_SOURCE_DIR) + "/examples/store",
                       store.string()})
              .exit_code == 0);
  check_converges(sandbox, store);
}

TEST_CASE("a second consolidation of a generated store finds nothing to do") {
  for (const char* seed : {"1", "2", "3"}) {
    INFO("seed " << seed);
    const Sandbox sandbox;
    const fs::path store = sandbox.work("store");
    const auto generated = engram::test::run(
        {"python3", std::string(ENGRAM_SOURCE_DIR) + "/bench/generate.py", "--out", store.string(),
         "--episodic", "160", "--expired", "0.8", "--semantic", "60", "--duplicates", "0.1",
         "--seed", seed, "--now", k_now});
    INFO(generated.err);
    REQUIRE(generated.exit_code == 0);
    REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
    check_converges(sandbox, store);
  }
}
