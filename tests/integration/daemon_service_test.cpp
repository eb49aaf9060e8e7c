// `engram service install|uninstall`: the systemd unit and the launchd agent
// written for the sandbox's user, checked by the tools that read them:
// `systemd-analyze verify` where it runs, Python's plistlib for the plist.
#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

namespace fs = std::filesystem;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::write_file;

namespace {

// True when `program` is found in PATH.
bool on_path(const std::string& program) {
  return engram::test::run({"sh", "-c", "command -v " + program}).exit_code == 0;
}

} // namespace

TEST_CASE("service install writes a systemd unit for the daemon that systemd-analyze accepts") {
  const Sandbox sandbox;
  const fs::path config = sandbox.work("config.toml");
  write_file(config, "[[store]]\npath = \"" + sandbox.work("memory").string() + "\"\n");

  const auto dry =
      sandbox.engram({"--config", config.string(), "service", "install", "--systemd", "--dry-run"});
  REQUIRE(dry.exit_code == 0);
  const fs::path unit = sandbox.root() / "config" / "systemd" / "user" / "engram.service";
  CHECK_FALSE(fs::exists(unit));
  CHECK_THAT(dry.out, Catch::Contains("would write " + unit.string()));

  const auto installed =
      sandbox.engram({"--config", config.string(), "service", "install", "--systemd"});
  INFO(installed.err);
  REQUIRE(installed.exit_code == 0);
  CHECK_THAT(installed.out, Catch::Contains("systemctl --user enable --now engram.service"));
  const std::string text = read_file(unit);
  CHECK_THAT(text, Catch::Contains("ExecStart=" + std::string(ENGRAM_BINARY) + " --config " +
                                   config.string() + " daemon\n"));
  CHECK_THAT(text, Catch::Contains("ReadWritePaths=%t -" + sandbox.work("memory").string()));
  CHECK_THAT(text, Catch::Contains("Type=notify"));

  if (!on_path("systemd-analyze")) {
    WARN("systemd-analyze is not installed; the unit was not verified");
    return;
  }
  auto environment = sandbox.environment();
  const auto verified =
      engram::test::run({"systemd-analyze", "verify", "--user", unit.string()}, environment);
  if (verified.err.find("Failed to initialize manager") != std::string::npos ||
      verified.err.find("Failed to lookup") != std::string::npos) {
    WARN("systemd-analyze cannot run here (" + verified.err + "); the unit was not verified");
    return;
  }
  INFO(verified.err);
  CHECK(verified.exit_code == 0);
  // Unknown keys are only warnings to systemd-analyze; here they are failures.
  CHECK_THAT(verified.err, !Catch::Contains("engram.service"));
}

TEST_CASE("service install --launchd writes a daemon agent plist that parses as a property list") {
  const Sandbox sandbox;
  const auto installed = sandbox.engram({"service", "install", "--launchd"});
  INFO(installed.err);
  REQUIRE(installed.exit_code == 0);
  const fs::path plist =
      sandbox.root() / "home" / "Library" / "LaunchAgents" / "io.engram.daemon.plist";
  REQUIRE(fs::exists(plist));
  CHECK(fs::is_directory(sandbox.root() / "home" / "Library" / "Logs" / "engram"));
  CHECK_THAT(installed.out, Catch::Contains("launchctl bootstrap gui/$(id -u)"));

  if (!on_path("python3")) {
    WARN("python3 is not installed; the plist was not parsed");
    return;
  }
  const auto parsed = engram::test::run(
      {"python3", "-c",
       "import plistlib, sys\n"
       "d = plistlib.load(open(sys.argv[1], 'rb'))\n"
       "assert d['Label'] == 'io.engram.daemon', d\n"
       "assert d['ProgramArguments'][-1] == 'daemon', d\n"
       "assert d['RunAtLoad'] is True and d['KeepAlive'] == {'SuccessfulExit': False}, d\n"
       "assert d['ProcessType'] == 'Background' and d['ThrottleInterval'] > 0, d\n"
       "assert d['StandardErrorPath'].endswith('/Library/Logs/engram/engram.log'), d\n"
       "print(d['ProgramArguments'][0])\n",
       plist.string()});
  INFO(parsed.err);
  CHECK(parsed.exit_code == 0);
  CHECK(parsed.out == std::string(ENGRAM_BINARY) + "\n");
}

TEST_CASE("service uninstall removes the file and its link, and says how to stop the daemon") {
  const Sandbox sandbox;
  REQUIRE(sandbox.engram({"service", "install", "--systemd"}).exit_code == 0);
  const fs::path units = sandbox.root() / "config" / "systemd" / "user";
  fs::create_directories(units / "default.target.wants");
  fs::create_symlink(units / "engram.service", units / "default.target.wants" / "engram.service");

  const auto again = sandbox.engram({"service", "install", "--systemd"});
  CHECK_THAT(again.out, Catch::Contains("already installed"));

  const auto removed = sandbox.engram({"service", "uninstall", "--systemd"});
  REQUIRE(removed.exit_code == 0);
  CHECK_FALSE(fs::exists(units / "engram.service"));
  CHECK_FALSE(fs::is_symlink(units / "default.target.wants" / "engram.service"));
  CHECK_THAT(removed.out, Catch::Contains("systemctl --user stop engram.service"));
  const auto nothing = sandbox.engram({"service", "uninstall", "--systemd"});
  CHECK(nothing.exit_code == 0);
  CHECK_THAT(nothing.out, Catch::Contains("nothing to uninstall"));
}
