// A private memory stays private: every file engram rewrites keeps its mode
// (a 0600 file is still 0600 after `consolidate` and `append`), and a file
// engram creates in a layer folder is as restrictive as that folder.
#include "lib/history.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>
#include <sys/stat.h>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// The permission bits of `path`.
unsigned mode_of(const fs::path& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 0777;
}

} // namespace

TEST_CASE("a 0600 memory rewritten by a consolidation is still 0600") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const fs::path fact = store / "semantic" / "shopify-api.md";
  fs::permissions(fact, fs::perms::owner_read | fs::perms::owner_write);
  fs::permissions(store / "procedural", fs::perms::owner_all);
  const auto before = read_file(fact);
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_history_now});
  REQUIRE(read_file(fact) != before); // the expired episodes' claims went into it
  CHECK(mode_of(fact) == 0600);
  // What decay filed in the private procedural folder is private too.
  bool made = false;
  for (const auto& entry : fs::directory_iterator(store / "procedural")) {
    if (entry.path().extension() == ".md") {
      INFO(entry.path());
      CHECK(mode_of(entry.path()) == 0600);
      made = true;
    }
  }
  CHECK(made);
  // A file in an ordinary folder is as it always was.
  CHECK(mode_of(store / "MEMORY.md") == 0644);
}

TEST_CASE("a 0600 WORKING.md is still 0600 after engram append") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  fs::permissions(store / "WORKING.md", fs::perms::owner_read | fs::perms::owner_write);
  ok(sandbox, {"append", "--store", store.string(), "Switched the sync to webhooks"});
  CHECK_THAT(read_file(store / "WORKING.md"), Catch::Contains("Switched the sync to webhooks"));
  CHECK(mode_of(store / "WORKING.md") == 0600);
}
