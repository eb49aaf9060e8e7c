// A store never takes in what lies outside it: a hard link to a file
// outside, and a symlink to a folder outside, are diagnosed by path and left
// out of the model and out of every commit, like a file symlink that leaves
// the store. The rest of the store goes on as usual.
#include "lib/history.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

TEST_CASE("a hard link to a file outside the store is diagnosed and never committed") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const fs::path outside = sandbox.work("private/diary.md");
  write_file(outside, "---\ntype: semantic\ntags: [diary]\n---\n- Someone's private diary line.\n");
  fs::create_hard_link(outside, store / "semantic" / "diary.md");

  const auto run =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(run.out << run.err);
  CHECK_THAT(run.out + run.err,
             Catch::Contains("semantic/diary.md:1: has 2 hard links") &&
                 Catch::Contains("outside the store"));
  CHECK_THAT(git_out(sandbox, store, {"log", "--all", "-p", "--format=%B"}),
             !Catch::Contains("private diary line"));
  CHECK_THAT(git_out(sandbox, store, {"ls-files"}), !Catch::Contains("diary.md"));
  CHECK_THAT(knowledge_text(store), Catch::Contains("private diary line")); // only the link itself
  CHECK(read_file(outside).find("private diary line") != std::string::npos);
  check_every_claim(store);
}

TEST_CASE("a symlink to a folder outside the store is diagnosed and not walked") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const fs::path outside = sandbox.work("elsewhere");
  write_file(outside / "notes.md",
             "---\ntype: semantic\ntags: [elsewhere]\n---\n- A line from another folder.\n");
  fs::create_directory_symlink(outside, store / "semantic" / "elsewhere");

  const auto check = sandbox.engram({"check", "--store", store.string()});
  CHECK_THAT(check.out + check.err, Catch::Contains("semantic/elsewhere:1: symlink to a folder"));
  const auto run =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(run.out << run.err);
  CHECK_THAT(git_out(sandbox, store, {"log", "--all", "-p", "--format=%B"}),
             !Catch::Contains("A line from another folder"));
  CHECK_THAT(read_file(store / "MEMORY.md"), !Catch::Contains("elsewhere/notes.md"));
  check_every_claim(store);
}
