// Bad input is diagnosed, never acted on: every unusable file in a store is
// left byte for byte as it was and named in the record, while the good files
// next to it consolidate. A decay date engram cannot read never removes a file.
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using engram::test::episodic_memory;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::write_file;

namespace {

constexpr const char* k_now = "2026-11-22";

// The bytes (or link target) of each path, read without following links.
std::map<std::string, std::string> contents(const fs::path& store,
                                            const std::vector<std::string>& paths) {
  std::map<std::string, std::string> out;
  for (const auto& path : paths) {
    const fs::path full = store / path;
    out[path] = fs::is_symlink(full) ? "-> " + fs::read_symlink(full).string() : read_file(full);
  }
  return out;
}

// True when some diagnostic names `path` at `line`.
bool diagnosed(const nlohmann::json& record, const std::string& path, int line) {
  const std::string location = "/" + path + ":" + std::to_string(line) + ": ";
  for (const auto& diagnostic : record["diagnostics"]) {
    if (diagnostic.get<std::string>().find(location) != std::string::npos) {
      return true;
    }
  }
  return false;
}

} // namespace

TEST_CASE(
    "malformed files are left untouched and reported while a good expired file consolidates") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  engram::test::write_malformed_store(store, sandbox.work("outside.md"));
  write_file(store / "episodic" / "2026-04-01-next-week.md",
             "---\ntype: episodic\ntags: [meeting, planning]\ncreated: 2026-04-01\n"
             "decay-after: next week\n---\nThe planning meeting moved to Thursdays.\n");
  write_file(store / "episodic" / "2026-05-01-good.md",
             episodic_memory({"sqlite", "pagination"}, "2026-05-01", "2026-06-01",
                             "- The cache database lives in `var/cache.sqlite3`.\n"));
  const fs::path config = sandbox.work("small.toml");
  write_file(config, "[scan]\nmax_file_bytes = 4096\n");

  std::vector<std::string> untouchable;
  for (const auto& [path, line] : engram::test::malformed_files()) {
    untouchable.push_back(path);
  }
  untouchable.push_back("episodic/2026-04-01-next-week.md");
  const auto before = contents(store, untouchable);

  const auto result = sandbox.engram({"--config", config.string(), "consolidate", "--store",
                                      store.string(), "--now", k_now, "--json"});
  INFO(result.out);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto record = nlohmann::json::parse(result.out);

  // Each bad file is byte-identical and named at its line.
  CHECK(contents(store, untouchable) == before);
  for (const auto& [path, line] : engram::test::malformed_files()) {
    INFO(path << ":" << line);
    CHECK(diagnosed(record, path, line));
  }
  CHECK(diagnosed(record, "episodic/2026-04-01-next-week.md", 5));

  // The good expired file went where it belongs.
  CHECK_FALSE(fs::exists(store / "episodic" / "2026-05-01-good.md"));
  CHECK_THAT(engram::test::knowledge_text(store),
             Catch::Contains("The cache database lives in `var/cache.sqlite3`."));
  // No action of the record touches a bad file.
  for (const auto& action : record["actions"]) {
    for (const auto& path : untouchable) {
      CHECK(action["source"] != path);
      CHECK(action["target"] != path);
    }
  }
}

TEST_CASE("text mode lists the skipped files on stderr") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  write_file(store / "semantic" / "unterminated.md", "---\ntype: semantic\n\nNo closing fence.\n");
  const auto result = sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now});
  INFO(result.out);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("semantic/unterminated.md:1:"));
}

TEST_CASE("an episodic file whose decay date cannot be read is never removed") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const std::vector<std::pair<std::string, std::string>> files{
      {"episodic/2020-01-01-us-date.md", "12/31/2099"},
      {"episodic/2020-01-02-next-week.md", "next week"},
      {"episodic/2020-01-03-quoted-words.md", "\"soon\""},
  };
  for (const auto& [path, decay] : files) {
    write_file(store / path, episodic_memory({"a", "b"}, "2020-01-01", decay,
                                             "- A fact that must not vanish.\n"));
  }
  // Far in the future, where created + retention is long past.
  for (const char* now : {"2026-11-22", "2099-12-31", "2200-01-01"}) {
    const auto result = sandbox.engram({"consolidate", "--store", store.string(), "--now", now});
    INFO(result.err);
    CHECK(result.exit_code == 0);
    for (const auto& [path, decay] : files) {
      INFO(path << " at " << now);
      CHECK(fs::exists(store / path));
    }
  }
}
