// The index rule in lightweight runs: an .index.json entry is rebuilt only
// when its file's bytes changed; a full run rebuilds every entry.
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

TEST_CASE("a lightweight run reuses index entries of unchanged files and rebuilds changed ones") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  write_file(store / "semantic/a.md", "---\ntype: semantic\ntags: [alpha, beta]\n---\nAlpha is first.\n");
  write_file(store / "semantic/b.md", "---\ntype: semantic\ntags: [beta, gamma]\n---\nBeta is second.\n");
  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", "2026-11-22"}).exit_code == 0);

  // Mark both entries so a rebuild is visible: the hash still matches the file.
  auto index = nlohmann::json::parse(read_file(store / ".index.json"));
  REQUIRE(entry_for(index, "semantic/a.md")["hash"].is_string());
  entry_for(index, "semantic/a.md")["summary"] = "kept from before";
  entry_for(index, "semantic/b.md")["summary"] = "kept from before";
  write_file(store / ".index.json", index.dump(2) + "\n");
  write_file(store / "semantic/b.md", "---\ntype: semantic\ntags: [beta, gamma]\n---\nBeta changed.\n");

  REQUIRE(sandbox.engram({"consolidate", "--lightweight", "--store", store.string(), "--now", "2026-11-22"})
              .exit_code == 0);
  index = nlohmann::json::parse(read_file(store / ".index.json"));
  CHECK(entry_for(index, "semantic/a.md")["summary"] == "kept from before");
  CHECK(entry_for(index, "semantic/b.md")["summary"] == "Beta changed.");

  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", "2026-11-22"}).exit_code == 0);
  index = nlohmann::json::parse(read_file(store / ".index.json"));
  CHECK(entry_for(index, "semantic/a.md")["summary"] == "Alpha is first.");
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());
}
