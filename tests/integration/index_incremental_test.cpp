// The index rule renders .index.json from the files on every run, light or
// full: a changed file's entry follows it, a hand-edited entry of the
// generated file is put back, and a new day alone changes nothing.
#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::write_file;

namespace {

nlohmann::json& entry_for(nlohmann::json& index, const std::string& path) {
  for (auto& entry : index["entries"]) {
    if (entry["path"] == path) {
      return entry;
    }
  }
  FAIL("no .index.json entry for " << path);
  throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("a lightweight run renders every index entry from its file") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  write_file(store / "semantic/a.md", "---\ntype: semantic\ntags: [alpha, beta]\n---\nAlpha is first.\n");
  write_file(store / "semantic/b.md", "---\ntype: semantic\ntags: [beta, \"gam\\\"ma\"]\n---\nBeta is second.\n");
  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", "2026-11-22"}).exit_code == 0);

  auto index = nlohmann::json::parse(read_file(store / ".index.json"));
  CHECK(index["generated"] == "2026-11-22");
  CHECK(entry_for(index, "semantic/b.md")["tags"] == nlohmann::json::array({"beta", "gam\"ma"}));
  CHECK_FALSE(entry_for(index, "semantic/a.md").contains("hash"));

  // Someone edits the generated file, and an agent edits a memory.
  entry_for(index, "semantic/a.md")["summary"] = "edited by hand";
  write_file(store / ".index.json", index.dump(2) + "\n");
  write_file(store / "semantic/b.md", "---\ntype: semantic\ntags: [beta]\n---\nBeta changed.\n");

  REQUIRE(sandbox.engram({"consolidate", "--lightweight", "--store", store.string(), "--now", "2026-11-23"})
              .exit_code == 0);
  index = nlohmann::json::parse(read_file(store / ".index.json"));
  CHECK(entry_for(index, "semantic/a.md")["summary"] == "Alpha is first.");
  CHECK(entry_for(index, "semantic/b.md")["summary"] == "Beta changed.");
  CHECK(index["generated"] == "2026-11-23");
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());

  // A later day with nothing changed: the index keeps its date, no commit.
  const auto head = sandbox.git(store, {"rev-parse", "HEAD"}).out;
  REQUIRE(sandbox.engram({"consolidate", "--lightweight", "--store", store.string(), "--now", "2026-11-24"})
              .exit_code == 0);
  CHECK(sandbox.git(store, {"rev-parse", "HEAD"}).out == head);
  index = nlohmann::json::parse(read_file(store / ".index.json"));
  CHECK(index["generated"] == "2026-11-23");
}

TEST_CASE("an edit that leaves a memory's indexed fields alone leaves .index.json alone") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  write_file(store / "semantic/a.md",
             "---\ntype: semantic\ntags: [alpha, beta]\n---\nAlpha is first.\n");
  REQUIRE(
      sandbox.engram({"consolidate", "--store", store.string(), "--now", "2026-11-22"}).exit_code ==
      0);
  const auto before = read_file(store / ".index.json");
  auto head = sandbox.git(store, {"rev-parse", "HEAD"}).out;
  head.pop_back(); // the newline

  // The agent appends a line below the summary: the snapshot commits it, and
  // the index (whose summary is the first line) has nothing to say about it.
  write_file(
      store / "semantic/a.md",
      "---\ntype: semantic\ntags: [alpha, beta]\n---\nAlpha is first.\n- Beta came later.\n");
  REQUIRE(sandbox
              .engram({"consolidate", "--lightweight", "--store", store.string(), "--now",
                       "2026-11-22"})
              .exit_code == 0);
  CHECK(read_file(store / ".index.json") == before);
  const auto log = sandbox.git(store, {"log", "--format=%s", head + "..HEAD"}).out;
  CHECK(log == "snapshot: 1 file changed by the agent\n");
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());
}
