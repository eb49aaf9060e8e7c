// Rendering: `engram config show` prints TOML that loads back to the same
// settings, and `engram config keys` documents every key.
#include "config/config.hpp"
#include "config/key_table.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>

using engram::config::Config;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

// Loads `text` from a file in `dir`, failing the test on any problem.
Config load_text(const TempDir& dir, const std::string& name, std::string_view text) {
  write_file(dir / name, text);
  auto result = engram::config::load(dir / name);
  if (!result.has_value()) {
    for (const auto& message : result.error()) {
      UNSCOPED_INFO(message);
    }
  }
  REQUIRE(result.has_value());
  return std::move(result).value();
}

// Checks that two configurations hold the same settings and stores.
void check_same(const Config& a, const Config& b) {
  CHECK(a.global == b.global);
  REQUIRE(a.stores.size() == b.stores.size());
  for (std::size_t i = 0; i < a.stores.size(); ++i) {
    CHECK(a.stores[i].path == b.stores[i].path);
    CHECK(a.stores[i].name == b.stores[i].name);
    CHECK(a.stores[i].overridden == b.stores[i].overridden);
    CHECK(a.stores[i].settings == b.stores[i].settings);
  }
}

} // namespace

TEST_CASE("the rendered defaults load back to the defaults") {
  TempDir dir;
  const Config defaults{.source = {}, .global = engram::config::Settings::defaults(), .stores = {}};
  const Config loaded = load_text(dir, "shown.toml", engram::config::render_toml(defaults));
  check_same(defaults, loaded);
}

TEST_CASE("a rendered configuration loads back to equal settings") {
  TempDir dir;
  const Config original = load_text(dir, "config.toml", R"(
[guard]
working_chars = 6000
working_target_chars = 4000
[daemon]
full_at = ""
watcher = "poll"
[git]
author_name = "Quote \" and back\\slash\tand tab"
[plugins]
dirs = ["/opt/engram plugins", "/usr/lib/engram"]
[rules.episodic-decay]
near_duplicate = 1
[rules.dedupe]
similarity = 0.1
[rules.my-plugin]
ratio = 1.5
count = 4
words = []
deep.flag = true

[[store]]
path = "~/m"
name = "work"
[store.guard]
working_chars = 9000
[store.rules.my-plugin]
ratio = 2

[[store]]
path = "/srv/other"
rules.forgetting.include_confirmed = true
)");
  const std::string shown = engram::config::render_toml(original);
  CAPTURE(shown);
  const Config again = load_text(dir, "shown.toml", shown);
  check_same(original, again);
  // Past the first line, which names the file it came from, rendering is stable.
  const std::string shown_again = engram::config::render_toml(again);
  CHECK(shown_again.substr(shown_again.find('\n')) == shown.substr(shown.find('\n')));
}

TEST_CASE("the rendered TOML groups keys by table and lists only a store's overrides") {
  TempDir dir;
  const Config config = load_text(dir, "config.toml",
                                  "[rules.extra]\nlevel = 1\n"
                                  "[[store]]\npath = \"/srv/m\"\nguard.working_chars = 4000\n"
                                  "[store.rules.extra]\nlevel = 2\n");
  const std::string shown = engram::config::render_toml(config);
  CHECK(shown.find("\n[guard]\nworking_chars = 3000\nworking_target_chars = 2000\n") !=
        std::string::npos);
  CHECK(shown.find("\n[rules.episodic-decay]\nenabled = true\nnear_duplicate = 0.9\n") !=
        std::string::npos);
  CHECK(shown.find("\n[rules.extra]\nlevel = 1\n") != std::string::npos);
  CHECK(shown.ends_with("\n[[store]]\npath = \"/srv/m\"\nguard.working_chars = 4000\n"
                        "rules.extra.level = 2\n"));
  CHECK(shown.find("[layout]") < shown.find("[guard]"));
  CHECK(shown.find("[guard]") < shown.find("[rules.working-memory]"));
}

TEST_CASE("the key reference lists every key with its default and help") {
  const std::string reference = engram::config::render_key_reference();
  for (const auto& table : engram::config::k_config_tables) {
    CHECK(reference.find("\n[" + std::string(table.name) + "]\n") != std::string::npos);
  }
  CHECK(reference.find("\n  working_chars = 3000\n      (integer, 1 to 10000000) WORKING.md's "
                       "size guard") != std::string::npos);
  CHECK(reference.find("\n  watcher = \"auto\"\n      (string) How changes are noticed") !=
        std::string::npos);
  CHECK(reference.find("\n  dirs = []\n      (list of strings, top level only)") !=
        std::string::npos);
  CHECK(reference.find("[[store]]") != std::string::npos);
  for (const auto& key : engram::config::k_config_key_table) {
    CAPTURE(key.name);
    CHECK(reference.find("\n  " + std::string(engram::config::leaf_of(key.name)) + " = ") !=
          std::string::npos);
  }
}
