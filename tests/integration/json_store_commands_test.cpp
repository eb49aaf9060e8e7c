// `--json` on the commands that work on one store's files: check, init,
// append, feedback, pack and config. Each prints one JSON object whose values
// are checked against what the command really did, read back with git and
// from the files; a failure is an object too, and the exit code is unchanged.
#include "lib/json_output.hpp"
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

namespace fs = std::filesystem;
using engram::test::json_of;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::write_file;

namespace {

// HEAD of the repository at `store`, as git says it.
std::string head(const Sandbox& sandbox, const fs::path& store) {
  auto out = sandbox.git(store, {"rev-parse", "HEAD"}).out;
  return out.substr(0, out.find('\n'));
}

} // namespace

TEST_CASE("check --json lists every problem as an object with its path and line") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  engram::test::write_malformed_store(store, sandbox.work("outside.md"));
  const fs::path config = sandbox.work("small.toml");
  write_file(config, "[scan]\nmax_file_bytes = 4096\n");

  const auto result =
      sandbox.engram({"--config", config.string(), "check", "--json", "--store", store.string()});
  CHECK(result.exit_code == 1); // as without --json
  const auto json = json_of(result);
  CHECK(json["store"] == store.string());
  std::map<std::string, int>
      reported; // by store-relative path, as the text output's may be absolute
  for (const auto& diagnostic : json["diagnostics"]) {
    const fs::path path = diagnostic["path"].get<std::string>();
    reported[path.lexically_relative(store).generic_string()] = diagnostic["line"].get<int>();
    CHECK_FALSE(diagnostic["reason"].get<std::string>().empty());
  }
  for (const auto& [path, line] : engram::test::malformed_files()) {
    INFO(path);
    REQUIRE(reported.count(path) == 1);
    CHECK(reported[path] == line);
  }
  CHECK(json["errors"].get<std::size_t>() + json["warnings"].get<std::size_t>() ==
        json["diagnostics"].size());
  // WORKING.md, semantic/good.md, and the meeting whose date is only warned about.
  CHECK(json["memory_files"] == 3);
  CHECK(json["warnings"] == 1);
}

TEST_CASE("init --json names the commit it made, and a second init says nothing was created") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  write_file(store / "notes.md", "An agent's note from before engram.\n");

  const auto first = json_of(sandbox.engram({"init", "--json", store.string()}));
  CHECK(first["created"] == true);
  CHECK(first["store"] == store.string());
  CHECK(first["commit"] == head(sandbox, store));
  CHECK(first["snapshot_files"] == 1);
  const auto parent = sandbox.git(store, {"rev-parse", "HEAD~1"}).out;
  CHECK(first["snapshot_commit"].get<std::string>() + "\n" == parent);
  CHECK(first["history_outside"] == false);
  CHECK(first["profile"]["name"].is_string());

  const auto again = sandbox.engram({"init", "--json", store.string()});
  CHECK(again.exit_code == 0);
  const auto second = json_of(again);
  CHECK(second["created"] == false);
  CHECK(second["commit"].is_null());
}

TEST_CASE("append --json says where the text went, under the guard and over it") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);

  const auto placed = json_of(sandbox.engram(
      {"append", "--json", "--store", store.string(), "--section", "Now", "ship", "it"}));
  CHECK(placed["path"] == "WORKING.md");
  CHECK(placed["section"] == "Now");
  CHECK(placed["overflow"] == false);
  CHECK(placed["reason"].is_null());
  CHECK_THAT(read_file(store / "WORKING.md"), Catch::Contains("ship it"));

  const fs::path config = sandbox.work("tight.toml");
  write_file(config, "[guard]\nworking_chars = 300\nworking_target_chars = 200\n");
  const std::string long_text(400, 'a');
  const auto over =
      json_of(sandbox.engram({"--config", config.string(), "append", "--json", "--store",
                              store.string(), "--now", "2026-03-04", long_text}));
  CHECK(over["overflow"] == true);
  CHECK(over["path"] == "episodic/2026-03-04-working-memory.md");
  CHECK(over["consolidation_requested"] == true);
  CHECK_THAT(read_file(store / over.value("path", "")), Catch::Contains(long_text));

  const auto empty = sandbox.engram({"append", "--json", "--store", store.string(), " "});
  CHECK(empty.exit_code == 2);
  CHECK(json_of(empty)["error"] == "the text is empty");
}

TEST_CASE("feedback --json names the memory it noted, and a file outside the store is an error") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  write_file(store / "semantic" / "api.md", engram::test::k_good_semantic);

  const auto noted = json_of(
      sandbox.engram({"feedback", "--json", "--store", store.string(), "--now", "2026-02-03",
                      "--unhelpful", (store / "semantic" / "api.md").string()}));
  CHECK(noted["path"] == "semantic/api.md");
  CHECK(noted["helpful"] == false);
  CHECK(noted["date"] == "2026-02-03");

  const auto outside = sandbox.engram(
      {"feedback", "--json", "--store", store.string(), "--helpful", sandbox.work("x.md")});
  CHECK(outside.exit_code == 1);
  CHECK_THAT(json_of(outside)["error"].get<std::string>(), Catch::Contains("not in the store"));
}

TEST_CASE("pack --json counts the objects it packed, and none stay loose") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const auto packed = json_of(sandbox.engram({"pack", "--json", "--store", store.string()}));
  CHECK(packed["busy"] == false);
  CHECK(packed["objects"].get<int>() > 0);
  CHECK(packed["pack"].get<std::string>().starts_with("objects/pack/pack-"));
  CHECK(fs::exists(store / ".git" / packed["pack"].get<std::string>()));
  CHECK_THAT(sandbox.git(store, {"count-objects", "-v"}).out, Catch::Contains("count: 0\n"));
}

TEST_CASE("config show --json and config keys --json give the values in force and every key") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  const fs::path config = sandbox.work("config.toml");
  write_file(config, "[guard]\nworking_chars = 4000\n\n[[store]]\npath = \"" + store.string() +
                         "\"\nname = \"mine\"\nguard.working_chars = 5000\n");

  const auto shown =
      json_of(sandbox.engram({"--config", config.string(), "config", "show", "--json"}));
  CHECK(shown["source"] == config.string());
  CHECK(shown["settings"]["guard.working_chars"] == 4000);
  REQUIRE(shown["stores"].size() == 1);
  CHECK(shown["stores"][0]["name"] == "mine");
  CHECK(shown["stores"][0]["overridden"]["guard.working_chars"] == 5000);
  const auto narrowed = json_of(sandbox.engram(
      {"--config", config.string(), "config", "show", "--json", "--store", store.string()}));
  CHECK(narrowed["store"] == store.string());
  CHECK(narrowed["settings"]["guard.working_chars"] == 5000);

  const auto keys = json_of(sandbox.engram({"config", "keys", "--json"}));
  std::set<std::string> names;
  for (const auto& key : keys["keys"]) {
    names.insert(key["name"].get<std::string>());
    if (key["name"] == "guard.working_chars") {
      CHECK(key["type"] == "integer");
      CHECK(key["table"] == "guard");
    }
  }
  const auto defaults = json_of(sandbox.engram({"config", "show", "--json"}));
  for (const auto& [name, value] : defaults["settings"].items()) {
    CHECK(names.count(name) == 1);
  }

  write_file(config, "[guard]\nworking_chars = \"many\"\n");
  const auto bad = sandbox.engram({"--config", config.string(), "config", "show", "--json"});
  CHECK(bad.exit_code == 2);
  const auto failure = json_of(bad);
  REQUIRE(failure["diagnostics"].size() == 1);
  CHECK(failure["diagnostics"][0]["path"] == config.string());
  CHECK(failure["diagnostics"][0]["line"] == 2);
}
