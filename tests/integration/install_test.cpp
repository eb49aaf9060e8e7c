// What `make install` puts in place: the binary, the plugin SDK with its
// CMake package, and the service files.
#include "lib/process.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <engram_version.hpp>

namespace fs = std::filesystem;
using engram::test::Sandbox;

TEST_CASE("cmake --install puts the binary, the SDK, its CMake package and the services in place") {
  const Sandbox sandbox;
  const fs::path prefix = sandbox.work("prefix");
  const auto installed =
      engram::test::run({"cmake", "--install", ENGRAM_BUILD_DIR, "--prefix", prefix.string()});
  INFO(installed.out);
  INFO(installed.err);
  REQUIRE(installed.exit_code == 0);

  const auto version =
      engram::test::run({(prefix / "bin" / "engram").string(), "--version"}, sandbox.environment());
  CHECK(version.exit_code == 0);
  CHECK(version.out == std::string("engram ") + engram::k_version + "\n");

  CHECK(fs::is_regular_file(prefix / "lib" / "cmake" / "engram" / "engramConfig.cmake"));
  CHECK(fs::is_regular_file(prefix / "lib" / "cmake" / "engram" / "engramConfigVersion.cmake"));
  CHECK(fs::is_regular_file(prefix / "include" / "engram" / "date.hpp"));
  // Every header of each SDK version as it shipped is installed, so a plugin
  // built against any of them builds against this install too.
  for (const auto& frozen : fs::directory_iterator(fs::path(ENGRAM_SOURCE_DIR) / "tests" / "sdk")) {
    for (const auto& header : fs::directory_iterator(frozen.path() / "include" / "engram")) {
      INFO(header.path().string());
      CHECK(fs::is_regular_file(prefix / "include" / "engram" / header.path().filename()));
    }
  }
  CHECK(fs::is_regular_file(prefix / "lib" / "systemd" / "user" / "engram.service"));
  CHECK(fs::is_regular_file(prefix / "share" / "engram" / "launchd" / "io.engram.daemon.plist"));

  // The services start the binary of this install, wherever --prefix put it,
  // and are what `engram service render` makes for it.
  const std::string binary = (prefix / "bin" / "engram").string();
  for (const auto& [manager, file] :
       {std::pair{"--systemd", prefix / "lib" / "systemd" / "user" / "engram.service"},
        std::pair{"--launchd",
                  prefix / "share" / "engram" / "launchd" / "io.engram.daemon.plist"}}) {
    const auto rendered = sandbox.engram({"service", "render", manager, "--binary", binary});
    CHECK(rendered.out == engram::test::read_file(file));
  }
  CHECK_THAT(engram::test::read_file(prefix / "lib" / "systemd" / "user" / "engram.service"),
             Catch::Contains("ExecStart=" + binary + " daemon\n"));
  CHECK_THAT(
      engram::test::read_file(prefix / "share" / "engram" / "launchd" / "io.engram.daemon.plist"),
      Catch::Contains("<string>" + binary + "</string>"));
  // The built-in rules come along, where the installed binary looks for them.
  for (const char* rule : {"working-memory.so", "episodic-decay.so", "index.so"}) {
    CHECK(fs::is_regular_file(prefix / "lib" / "engram" / "rules" / rule));
  }
  const auto plugins = engram::test::run({binary, "plugins"}, sandbox.environment());
  CHECK(plugins.exit_code == 0);
  CHECK_THAT(plugins.out, Catch::Contains((prefix / "lib" / "engram" / "rules").string()));
}

TEST_CASE("a user prefix puts the systemd unit where the user's systemd looks for units") {
  const Sandbox sandbox;
  const fs::path home = sandbox.root() / "home";
  const fs::path prefix = home / ".local";
  // HOME is the sandbox's; no XDG_DATA_HOME, as in a login shell that sets none.
  const engram::test::Environment user{{"HOME", home.string()}, {"XDG_DATA_HOME", ""}};
  const auto installed = engram::test::run(
      {"cmake", "--install", ENGRAM_BUILD_DIR, "--prefix", prefix.string()}, user);
  INFO(installed.out);
  INFO(installed.err);
  REQUIRE(installed.exit_code == 0);
  // Not ~/.config/systemd/user, which is `engram service install`'s: a unit
  // rendered for the user's own stores there wins over the packaged one.
  const fs::path units = home / ".local" / "share" / "systemd" / "user";
  CHECK(fs::is_regular_file(units / "engram.service"));
  CHECK_FALSE(fs::exists(prefix / "lib" / "systemd"));
  CHECK_FALSE(fs::exists(home / ".config" / "systemd" / "user" / "engram.service"));

  const auto paths = engram::test::run({"systemd-analyze", "--user", "unit-paths"}, user);
  if (paths.exit_code != 0) {
    WARN("systemd-analyze --user unit-paths cannot run here (" + paths.err +
         "); the unit's folder was not checked against systemd's");
    return;
  }
  const auto searched = paths.out_lines();
  CHECK(std::find(searched.begin(), searched.end(), units.string()) != searched.end());
}
