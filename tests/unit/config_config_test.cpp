// Settings access, the default locations (XDG base folders), `~` expansion,
// store matching and the choice between a given, a default and no file.
#include "base/error.hpp"
#include "config/config.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <string>

using engram::config::Config;
using engram::config::Settings;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

// Sets (or unsets, for nullopt) an environment variable for one scope, and
// restores what it was, so tests do not leak into each other.
class ScopedEnv {
public:
  // Gives `name` the value `value`, remembering the old one.
  ScopedEnv(std::string name, const std::optional<std::string>& value) : m_name(std::move(name)) {
    if (const char* old = std::getenv(m_name.c_str()); old != nullptr) {
      m_old = old;
    }
    apply(value);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

  // Puts the old value back.
  ~ScopedEnv() { apply(m_old); }

private:
  // Sets or unsets the variable.
  void apply(const std::optional<std::string>& value) const {
    if (value) {
      setenv(m_name.c_str(), value->c_str(), 1);
    } else {
      unsetenv(m_name.c_str());
    }
  }

  std::string m_name;
  std::optional<std::string> m_old;
};

} // namespace

TEST_CASE("typed access to a key not in the table throws engram::Error") {
  const Settings settings = Settings::defaults();
  CHECK_THROWS_AS(settings.get("guard.nothing"), engram::Error);
  CHECK_THROWS_AS(settings.get_int("guard.nothing"), engram::Error);
  CHECK_THROWS_AS(settings.get_bool("rules.my-plugin.enabled"), engram::Error);
}

TEST_CASE("typed access with the wrong type throws engram::Error") {
  const Settings settings = Settings::defaults();
  CHECK_THROWS_AS(settings.get_string("guard.working_chars"), engram::Error);
  CHECK_THROWS_AS(settings.get_real("guard.working_chars"), engram::Error);
  CHECK_THROWS_AS(settings.get_int("rules.dedupe.similarity"), engram::Error);
  CHECK_THROWS_AS(settings.get_list("layout.working"), engram::Error);
  CHECK_THROWS_AS(settings.get_bool("daemon.watcher"), engram::Error);
}

TEST_CASE("setting a key checks it against the table") {
  Settings settings = Settings::defaults();
  settings.set("guard.working_chars", std::int64_t{42});
  CHECK(settings.get_int("guard.working_chars") == 42);
  CHECK_THROWS_AS(settings.set("guard.working_chars", std::string("42")), engram::Error);
  CHECK_THROWS_AS(settings.set("guard.nothing", std::int64_t{1}), engram::Error);
  CHECK_THROWS_AS(settings.set("rules.dedupe.extra", true), engram::Error);
  settings.set("rules.plugin.extra", true);
  CHECK(settings.contains("rules.plugin.extra"));
  CHECK(settings.get_bool("rules.plugin.extra"));
}

TEST_CASE("the default configuration file honours XDG_CONFIG_HOME") {
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", "/xdg/config");
    CHECK(engram::config::default_config_path() == "/xdg/config/engram/config.toml");
  }
  ScopedEnv home("HOME", "/home/someone");
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", std::nullopt);
    CHECK(engram::config::default_config_path() == "/home/someone/.config/engram/config.toml");
  }
  {
    // The XDG specification says a relative value is to be ignored.
    ScopedEnv xdg("XDG_CONFIG_HOME", "relative/config");
    CHECK(engram::config::default_config_path() == "/home/someone/.config/engram/config.toml");
  }
}

TEST_CASE("the default store honours XDG_DATA_HOME") {
  {
    ScopedEnv xdg("XDG_DATA_HOME", "/xdg/data");
    CHECK(engram::config::default_store_path() == "/xdg/data/engram/memory");
  }
  ScopedEnv home("HOME", "/home/someone");
  ScopedEnv xdg("XDG_DATA_HOME", std::nullopt);
  CHECK(engram::config::default_store_path() == "/home/someone/.local/share/engram/memory");
}

TEST_CASE("a leading ~ is expanded to the home folder and nothing else is") {
  ScopedEnv home("HOME", "/home/someone");
  CHECK(engram::config::expand_home("~") == "/home/someone");
  CHECK(engram::config::expand_home("~/m/x") == "/home/someone/m/x");
  CHECK(engram::config::expand_home("/a/~/b") == "/a/~/b");
  CHECK(engram::config::expand_home("a~") == "a~");
  CHECK(engram::config::expand_home("~no-such-user-here/x") == "~no-such-user-here/x");
}

TEST_CASE("normalised paths compare equal across spellings") {
  CHECK(engram::config::normalise_path("/a/./b/../c/", "/") == "/a/c");
  CHECK(engram::config::normalise_path("m", "/base") == "/base/m");
  CHECK(engram::config::normalise_path("/", "/base") == "/");
}

TEST_CASE("settings for a store reached through a symbolic link are that store's") {
  TempDir dir;
  std::filesystem::create_directories(dir / "real");
  std::filesystem::create_directory_symlink(dir / "real", dir / "link");
  Config config{.source = {}, .global = Settings::defaults(), .stores = {}};
  Settings store_settings = Settings::defaults();
  store_settings.set("guard.working_chars", std::int64_t{7000});
  config.stores.push_back({.path = dir / "real",
                           .settings = store_settings,
                           .overridden = {"guard.working_chars"},
                           .name = {},
                           .profile = {}});
  CHECK(config.settings_for(dir / "link").get_int("guard.working_chars") == 7000);
  CHECK(config.settings_for(dir / "elsewhere").get_int("guard.working_chars") == 3000);
}

TEST_CASE("without --config, the default file is loaded when it exists, else the defaults") {
  TempDir dir;
  ScopedEnv xdg("XDG_CONFIG_HOME", dir.path().string());
  {
    const auto result = engram::config::load_or_default(std::nullopt);
    REQUIRE(result.has_value());
    CHECK(result->source.empty());
    CHECK(result->global == Settings::defaults());
  }
  write_file(dir / "engram/config.toml", "[guard]\nworking_chars = 3500\n");
  const auto result = engram::config::load_or_default(std::nullopt);
  REQUIRE(result.has_value());
  CHECK(result->source == dir / "engram/config.toml");
  CHECK(result->global.get_int("guard.working_chars") == 3500);
}

TEST_CASE("with --config, that file is loaded and a missing one is an error") {
  TempDir dir;
  write_file(dir / "mine.toml", "[daemon]\nsettle_ms = 250\n");
  const auto given = engram::config::load_or_default(dir / "mine.toml");
  REQUIRE(given.has_value());
  CHECK(given->global.get_int("daemon.settle_ms") == 250);

  const auto missing = engram::config::load_or_default(dir / "absent.toml");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().size() == 1);
}
