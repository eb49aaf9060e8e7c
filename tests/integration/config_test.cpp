// `engram config`: show prints TOML that loads again, keys lists every
// table, and a bad configuration stops every command with `file:line:`.
#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <regex>
#include <set>

namespace fs = std::filesystem;
using engram::test::Sandbox;
using engram::test::write_file;

namespace {

// The text without its comment lines, which may name the file it came from.
std::string without_comments(const std::string& text) {
  std::string result;
  std::size_t begin = 0;
  while (begin < text.size()) {
    auto end = text.find('\n', begin);
    if (end == std::string::npos) {
      end = text.size();
    }
    const std::string line = text.substr(begin, end - begin);
    if (!line.starts_with("#")) {
      result += line + "\n";
    }
    begin = end + 1;
  }
  return result;
}

// The `[table]` headers of a TOML text (not `[[arrays]]`).
std::set<std::string> tables(const std::string& toml) {
  std::set<std::string> found;
  const std::regex header(R"(^\[([A-Za-z0-9_.-]+)\]\s*$)");
  std::smatch match;
  std::size_t begin = 0;
  while (begin < toml.size()) {
    auto end = toml.find('\n', begin);
    if (end == std::string::npos) {
      end = toml.size();
    }
    const std::string line = toml.substr(begin, end - begin);
    if (std::regex_match(line, match, header)) {
      found.insert(match[1]);
    }
    begin = end + 1;
  }
  return found;
}

} // namespace

TEST_CASE("config show prints TOML that --config loads back to the same configuration") {
  const Sandbox sandbox;
  const auto shown = sandbox.engram({"config", "show"});
  INFO(shown.err);
  REQUIRE(shown.exit_code == 0);
  CHECK_FALSE(tables(shown.out).empty());

  const fs::path saved = sandbox.work("shown.toml");
  write_file(saved, shown.out);
  const auto reloaded = sandbox.engram({"--config", saved.string(), "config", "show"});
  INFO(reloaded.err);
  REQUIRE(reloaded.exit_code == 0);
  CHECK(without_comments(reloaded.out) == without_comments(shown.out));
}

TEST_CASE("config show includes the values a configuration file sets") {
  const Sandbox sandbox;
  const fs::path config = sandbox.work("custom.toml");
  write_file(config, "[guard]\nworking_chars = 1234\nworking_target_chars = 1000\n");
  const auto shown = sandbox.engram({"--config", config.string(), "config", "show"});
  REQUIRE(shown.exit_code == 0);
  CHECK_THAT(shown.out, Catch::Contains("working_chars = 1234"));

  // The default path is read when --config is not given.
  write_file(sandbox.default_config_file(),
             "[guard]\nworking_chars = 4321\nworking_target_chars = 1000\n");
  CHECK_THAT(sandbox.engram({"config", "show"}).out, Catch::Contains("working_chars = 4321"));
}

TEST_CASE("config keys lists every table of the configuration") {
  const Sandbox sandbox;
  const auto keys = sandbox.engram({"config", "keys"});
  REQUIRE(keys.exit_code == 0);
  const auto shown = sandbox.engram({"config", "show"});
  for (const auto& table : tables(shown.out)) {
    INFO(table);
    const bool listed = keys.out.find(table + ".") != std::string::npos ||
                        keys.out.find("[" + table + "]") != std::string::npos;
    CHECK(listed);
  }
  for (const char* key :
       {"working_chars", "memory_lines", "retention_days", "max_file_bytes", "author_name"}) {
    INFO(key);
    CHECK_THAT(keys.out, Catch::Contains(key));
  }
}

TEST_CASE("a bad configuration is reported as file:line: and exits 2") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);

  struct Case {
    std::string text;
    int line;
  };
  const std::vector<Case> cases{
      {"[guard]\nworking_chars = \"many\"\n", 2},              // wrong type
      {"[guard]\nworking_chars = 3000\nno_such_key = 1\n", 3}, // unknown key
      {"# fine\n[guard\n", 2},                                 // TOML syntax
  };
  for (const auto& bad : cases) {
    INFO(bad.text);
    const fs::path config = sandbox.work("bad.toml");
    write_file(config, bad.text);
    const std::vector<std::vector<std::string>> commands{{"status", "--store", store.string()},
                                                         {"check", "--store", store.string()},
                                                         {"config", "show"}};
    for (const auto& command : commands) {
      std::vector<std::string> args{"--config", config.string()};
      args.insert(args.end(), command.begin(), command.end());
      const auto result = sandbox.engram(args);
      INFO(command.front());
      CHECK(result.exit_code == 2);
      CHECK_THAT(result.err,
                 Catch::Contains(config.string() + ":" + std::to_string(bad.line) + ":"));
      CHECK(result.out.empty());
    }
  }
}

TEST_CASE("a bad configuration at the default path stops store commands too") {
  const Sandbox sandbox;
  write_file(sandbox.default_config_file(), "[guard]\nworking_chars = -5\n");
  const auto result = sandbox.engram({"init", sandbox.work("store").string()});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains(sandbox.default_config_file().string() + ":2:"));
  CHECK_FALSE(fs::exists(sandbox.work("store")));
}

TEST_CASE("a --config file that does not exist is an error, not the defaults") {
  const Sandbox sandbox;
  const auto result =
      sandbox.engram({"--config", sandbox.work("missing.toml").string(), "config", "show"});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("missing.toml"));
}

TEST_CASE(
    "a [[store]] section's overrides apply to that store and config show --store prints them") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("overridden");
  const fs::path config = sandbox.work("stores.toml");
  write_file(config, "[[store]]\npath = \"" + store.string() +
                         "\"\n\n[store.guard]\nworking_chars = 500\nworking_target_chars = 300\n");
  // No --store: the first [[store]] is the one.
  REQUIRE(sandbox.engram({"--config", config.string(), "init"}).exit_code == 0);
  REQUIRE(fs::is_directory(store / ".git"));

  const auto status = sandbox.engram(
      {"--config", config.string(), "status", "--store", store.string() + "/", "--json"});
  REQUIRE(status.exit_code == 0);
  CHECK_THAT(status.out, Catch::Contains("\"limit\": 500"));

  const auto other = sandbox.engram(
      {"--config", config.string(), "status", "--store", sandbox.work().string(), "--json"});
  CHECK_THAT(other.out, Catch::Contains("\"limit\": 3000"));

  const auto shown =
      sandbox.engram({"--config", config.string(), "config", "show", "--store", store.string()});
  REQUIRE(shown.exit_code == 0);
  CHECK_THAT(shown.out, Catch::Contains("working_chars = 500"));
  const fs::path narrowed = sandbox.work("narrowed.toml");
  write_file(narrowed, shown.out);
  const auto reloaded = sandbox.engram(
      {"--config", narrowed.string(), "status", "--store", sandbox.work().string(), "--json"});
  CHECK(reloaded.exit_code == 0);
  CHECK_THAT(reloaded.out, Catch::Contains("\"limit\": 500"));
}
