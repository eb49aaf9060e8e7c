// The SDK policy (docs/sdk.md): a plugin built against SDK 1.x loads in every
// engram 1.y with y >= x. The plugins here were built against each minor
// version's headers as they shipped (tests/sdk/1.0, 1.1, 1.2), not the
// tree's: this build must load each, run it in a consolidation and commit
// what it wrote.
#include "lib/plugin_folder.hpp"
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using engram::test::plugin_config;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::semantic_memory;
using engram::test::write_file;

namespace {

// `engram plugins` lists the plugin's rule with the SDK version it was built against.
void check_listed(const Sandbox& sandbox, const fs::path& config, const std::string& rule,
                  const std::string& sdk) {
  const auto listed = sandbox.engram({"--config", config.string(), "plugins", "--json"});
  INFO(listed.out);
  INFO(listed.err);
  REQUIRE(listed.exit_code == 0);
  CHECK_THAT(listed.out, Catch::Contains("\"" + rule + "\""));
  CHECK_THAT(listed.out, Catch::Contains("\"" + sdk + "\""));
}

// A new store, made by `engram init`.
fs::path new_store(const Sandbox& sandbox) {
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  return store;
}

// The record of a consolidation of `store` with the plugins of `config`, which must succeed.
nlohmann::json consolidated(const Sandbox& sandbox, const fs::path& config, const fs::path& store) {
  const auto result = sandbox.engram({"--config", config.string(), "consolidate", "--store",
                                      store.string(), "--now", "2026-11-22", "--json"});
  INFO(result.out);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  auto record = nlohmann::json::parse(result.out);
  CHECK(record["failed_rules"].empty());
  return record;
}

} // namespace

TEST_CASE("a plugin built against the SDK 1.0 headers loads and acts in this build") {
  const Sandbox sandbox;
  const fs::path config = plugin_config(sandbox, {"sdk-1.0-rule"});
  check_listed(sandbox, config, "sdk-1-0", "1.0");

  const fs::path store = new_store(sandbox);
  write_file(store / "semantic" / "cache.md",
             semantic_memory({"sqlite", "cache"}, "2026-05-01",
                             "- The cache database lives in `var/cache.sqlite3`.\n"
                             "- The cache is rebuilt every night.\n"));
  const auto record = consolidated(sandbox, config, store);
  bool acted = false;
  for (const auto& action : record["actions"]) {
    acted = acted || (action["rule"] == "sdk-1-0" && action["action"] == "wrote" &&
                      action["target"] == "semantic/sdk-1-0.md");
  }
  CHECK(acted);
  // What it wrote holds the host's answers through every part of the 1.0 interface.
  CHECK(read_file(store / "semantic" / "sdk-1-0.md") ==
        "Written by a rule built against SDK 1.0 on 2026-11-22: 1 files, 2 claims, 1 dated, "
        "1 duplicate of the probe, slug sdk-one-zero.\n");

  // git itself says the consolidation committed the file, and left nothing behind.
  const auto shown = sandbox.git(store, {"show", "--name-only", "--format=%s", "HEAD"});
  CHECK_THAT(shown.out, Catch::Contains("semantic/sdk-1-0.md"));
  const auto note = sandbox.git(store, {"log", "-1", "--notes=engram", "--format=%N"});
  CHECK_THAT(note.out, Catch::Contains("sdk-1-0"));
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());
}

TEST_CASE("a plugin built against the SDK 1.1 headers loads and acts in this build") {
  const Sandbox sandbox;
  const fs::path config = plugin_config(sandbox, {"sdk-1.1-rule"});
  check_listed(sandbox, config, "sdk-1-1", "1.1");

  const fs::path store = new_store(sandbox);
  consolidated(sandbox, config, store);
  // What 1.1 added wrote it: a marker, split back into an entry, inserted at a section's end.
  CHECK(read_file(store / "semantic" / "sdk-1-1.md") ==
        "# SDK 1.1\n\n- Written by a rule built against SDK 1.1.\n- The probe is 2.\n"
        "  <!-- superseded 2026-11-22: previously \"The probe is 1.\" -->\n\n# End\n");
  const auto shown = sandbox.git(store, {"show", "--name-only", "--format=%s", "HEAD"});
  CHECK_THAT(shown.out, Catch::Contains("semantic/sdk-1-1.md"));
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());
}

TEST_CASE("a plugin built against the SDK 1.2 headers loads and acts in this build") {
  const Sandbox sandbox;
  const fs::path config = plugin_config(sandbox, {"sdk-1.2-rule"});
  check_listed(sandbox, config, "sdk-1-2", "1.2");

  const fs::path store = new_store(sandbox);
  const std::vector<std::pair<std::string, std::string>> files = {
      {"cache", "- The cache database lives in `var/cache.sqlite3`.\n"},
      {"deploys", "- Deploys go out from the release branch every Tuesday.\n"},
      {"billing", "- Invoices are issued in euros by the Stripe account.\n"}};
  for (const auto& [name, claim] : files) {
    write_file(store / "semantic" / (name + ".md"), semantic_memory({name}, "2026-05-01", claim));
  }
  consolidated(sandbox, config, store);
  // It told the host of its progress over every semantic file, then wrote.
  CHECK(read_file(store / "semantic" / "sdk-1-2.md") ==
        "Written by a rule built against SDK 1.2 after 3 semantic files.\n");
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());
}
