// Plugins in a consolidation: a configured folder's rules run with the
// built-in ones, and a rule that throws loses only its own changes — the
// others still run and the record names it.
#include "lib/plugin_folder.hpp"
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using engram::test::episodic_memory;
using engram::test::plugin_config;
using engram::test::Sandbox;
using engram::test::write_file;

TEST_CASE("a plugin that throws does not stop the other rules, and the record names it") {
  const Sandbox sandbox;
  const fs::path config = plugin_config(sandbox, {"throws-on-run", "good"});
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  write_file(store / "episodic" / "2026-05-01-facts.md",
             episodic_memory({"sqlite", "cache"}, "2026-05-01", "2026-06-01",
                             "- The cache database lives in `var/cache.sqlite3`.\n"));

  const auto result = sandbox.engram({"--config", config.string(), "consolidate", "--store",
                                      store.string(), "--now", "2026-11-22", "--json"});
  INFO(result.out);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto record = nlohmann::json::parse(result.out);
  CHECK(record["failed_rules"] == nlohmann::json::array({"throws-on-run"}));
  bool named = false;
  for (const auto& action : record["actions"]) {
    named =
        named || (action["rule"] == "throws-on-run" && action["action"] == "failed" &&
                  action["reason"].get<std::string>().find("always throws") != std::string::npos);
    CHECK_FALSE((action["rule"] == "throws-on-run" && action["action"] == "wrote"));
  }
  CHECK(named);
  // Its own change is gone; everyone else's landed.
  CHECK_FALSE(fs::exists(store / "semantic" / "throws-on-run.md"));
  CHECK(fs::exists(store / "semantic" / "good.md"));
  CHECK_FALSE(fs::exists(store / "episodic" / "2026-05-01-facts.md"));
  CHECK(fs::exists(store / ".index.json"));

  const auto message = sandbox.git(store, {"log", "-1", "--notes=engram", "--format=%B%N"});
  CHECK_THAT(message.out, Catch::Contains("- throws-on-run failed"));
  CHECK_THAT(message.out, Catch::Contains("1 rule failed"));
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());
}

TEST_CASE("the text output says which rule failed") {
  const Sandbox sandbox;
  const fs::path config = plugin_config(sandbox, {"throws-on-run"});
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const auto result = sandbox.engram({"--config", config.string(), "consolidate", "--store",
                                      store.string(), "--now", "2026-11-22"});
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("rule throws-on-run failed"));
}
