// `engram check`: every unusable file is reported with its path and line,
// good files produce nothing, and not one byte (or mtime) changes.
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using engram::test::Sandbox;
using engram::test::snapshot_tree;
using engram::test::write_file;
using engram::test::write_malformed_store;

namespace {

// The stdout lines that report `relative` at `line` (the path may be absolute or relative).
std::vector<std::string> reports(const engram::test::Result& result, const std::string& relative,
                                 int line) {
  const std::string location = relative + ":" + std::to_string(line) + ": ";
  std::vector<std::string> found;
  for (const auto& text : result.out_lines()) {
    const auto at = text.find(location);
    if (at != std::string::npos && (at == 0 || text[at - 1] == '/')) {
      found.push_back(text);
    }
  }
  return found;
}

// True when any stdout line mentions `relative`.
bool mentions(const engram::test::Result& result, const std::string& relative) {
  for (const auto& text : result.out_lines()) {
    if (text.find(relative + ":") != std::string::npos) {
      return true;
    }
  }
  return false;
}

} // namespace

TEST_CASE("check reports each malformed file at its line and changes nothing") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  write_malformed_store(store, sandbox.work("outside.md"));
  const fs::path config = sandbox.work("small.toml");
  write_file(config, "[scan]\nmax_file_bytes = 4096\n");
  const auto before = snapshot_tree(store);

  const auto result =
      sandbox.engram({"--config", config.string(), "check", "--store", store.string()});
  INFO(result.out);
  INFO(result.err);
  CHECK(result.exit_code == 1);

  const auto expected = engram::test::malformed_files();
  for (const auto& [path, line] : expected) {
    INFO(path << ":" << line);
    CHECK(reports(result, path, line).size() == 1);
  }
  CHECK(result.out_lines().size() == expected.size());
  CHECK_FALSE(mentions(result, "semantic/good.md"));
  CHECK_FALSE(mentions(result, "WORKING.md"));
  CHECK_FALSE(result.err.empty()); // the summary

  // Nothing was written, touched, created or removed.
  CHECK(snapshot_tree(store) == before);
}

TEST_CASE("check names the problem in each report") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  write_malformed_store(store, sandbox.work("outside.md"));
  const fs::path config = sandbox.work("small.toml");
  write_file(config, "[scan]\nmax_file_bytes = 4096\n");
  const auto result =
      sandbox.engram({"--config", config.string(), "check", "--store", store.string()});
  INFO(result.out);
  const auto reason = [&](const std::string& path, int line) {
    const auto found = reports(result, path, line);
    return found.empty() ? std::string() : found.front();
  };
  CHECK_THAT(reason("semantic/unterminated.md", 1), Catch::Contains("frontmatter"));
  CHECK_THAT(reason("semantic/tags-scalar.md", 4), Catch::Contains("tags"));
  CHECK_THAT(reason("semantic/latin1.md", 6), Catch::Contains("UTF-8"));
  CHECK_THAT(reason("episodic/2026-03-01-meeting.md", 5), Catch::Contains("decay-after"));
}

TEST_CASE("check on a store of good files prints nothing and exits 0") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  write_file(store / "semantic" / "good.md", engram::test::k_good_semantic);
  const auto before = snapshot_tree(store);
  const auto result = sandbox.engram({"check", "--store", store.string()});
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(snapshot_tree(store) == before);
}

TEST_CASE("check on the example store exits 0") {
  const Sandbox sandbox;
  const fs::path example = fs::path(ENGRAM_SOURCE_DIR) / "examples" / "store";
  const auto before = snapshot_tree(example);
  const auto result = sandbox.engram({"check", "--store", example.string()});
  INFO(result.out);
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(snapshot_tree(example) == before);
}

TEST_CASE("check finds the store through the configuration's first [[store]]") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("configured");
  write_file(store / "semantic" / "unterminated.md", "---\ntype: semantic\n");
  write_file(sandbox.default_config_file(), "[[store]]\npath = \"" + store.string() + "\"\n");
  const auto result = sandbox.engram({"check"});
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(reports(result, "semantic/unterminated.md", 1).size() == 1);
}
