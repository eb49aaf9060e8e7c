// `engram service install|uninstall|render`: the systemd unit and the launchd
// agent written for the sandbox's user, checked by the tools that read them:
// `systemd-analyze verify` where it runs, Python's plistlib for the plist, and
// a real systemd user manager where the machine has one.
#include "lib/daemon_process.hpp"
#include "lib/outside_tmp.hpp"
#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using engram::test::outside_tmp;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::wait_until;
using engram::test::write_file;
using namespace std::chrono_literals;

namespace {

constexpr auto npos = std::string::npos;

// True when `program` is found in PATH.
bool on_path(const std::string& program) {
  return engram::test::run({"sh", "-c", "command -v " + program}).exit_code == 0;
}

// A configuration file in `sandbox` that keeps `store`.
fs::path config_keeping(const Sandbox& sandbox, const fs::path& store) {
  const fs::path config = sandbox.work("config.toml");
  write_file(config, "[[store]]\npath = \"" + store.string() + "\"\n");
  return config;
}

// Checks `unit` with `systemd-analyze verify`, where it can run.
void verify_unit(const Sandbox& sandbox, const fs::path& unit) {
  if (!on_path("systemd-analyze")) {
    WARN("systemd-analyze is not installed; " + unit.string() + " was not verified");
    return;
  }
  const auto verified = engram::test::run({"systemd-analyze", "verify", "--user", unit.string()},
                                          sandbox.environment());
  if (verified.err.find("Failed to initialize manager") != std::string::npos ||
      verified.err.find("Failed to lookup") != std::string::npos) {
    WARN("systemd-analyze cannot run here (" + verified.err + "); the unit was not verified");
    return;
  }
  INFO(verified.err);
  CHECK(verified.exit_code == 0);
  // Unknown keys are only warnings to systemd-analyze; here they are failures.
  CHECK_THAT(verified.err, !Catch::Contains(unit.filename().string()));
}

// Why no systemd user manager can run a unit for this test; empty when one can.
std::string no_user_manager() {
  if (!fs::exists("/run/systemd/system")) {
    return "the system was not booted with systemd (/run/systemd/system is missing), so neither "
           "`systemd --user` nor `systemd-run --user` can run";
  }
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  if (runtime == nullptr || *runtime == '\0') {
    return "XDG_RUNTIME_DIR is not set, so no user manager can be reached";
  }
  const auto state = engram::test::run({"systemctl", "--user", "is-system-running"},
                                       {{"XDG_RUNTIME_DIR", runtime}});
  if (state.out.starts_with("running") || state.out.starts_with("degraded")) {
    return "";
  }
  return "no systemd user manager answers (`systemctl --user is-system-running`: " + state.out +
         state.err + ")";
}

// A unit of the test's own in the user manager's runtime folder, so the
// user's own engram.service is left alone; stopped and removed at the end.
class TransientUnit {
public:
  // Writes `text` as engram-test-<pid>.service and has the manager read it.
  explicit TransientUnit(const std::string& text)
      : m_name("engram-test-" + std::to_string(::getpid()) + ".service"),
        m_path(fs::path(std::getenv("XDG_RUNTIME_DIR")) / "systemd" / "user" / m_name) {
    write_file(m_path, text);
    systemctl({"daemon-reload"});
  }
  ~TransientUnit() {
    systemctl({"stop", m_name});
    std::error_code ignored;
    fs::remove(m_path, ignored);
    systemctl({"daemon-reload"});
    systemctl({"reset-failed", m_name});
  }
  TransientUnit(const TransientUnit&) = delete;
  TransientUnit& operator=(const TransientUnit&) = delete;

  // Runs `systemctl --user ARGS...`.
  static engram::test::Result systemctl(std::vector<std::string> args) {
    args.insert(args.begin(), {"systemctl", "--user"});
    // Children get no XDG_ variables by default; systemctl finds the manager through this one.
    return engram::test::run(args, {{"XDG_RUNTIME_DIR", std::getenv("XDG_RUNTIME_DIR")}});
  }

  // One property of the unit, as `systemctl show` prints its value.
  std::string property(const std::string& name) const {
    auto value = systemctl({"show", "-p", name, "--value", m_name}).out;
    return value.substr(0, value.find('\n'));
  }

  // The unit's name.
  const std::string& name() const { return m_name; }

private:
  std::string m_name;
  fs::path m_path;
};

} // namespace

TEST_CASE("service install writes a systemd unit for the daemon that systemd-analyze accepts") {
  const Sandbox sandbox(outside_tmp());
  const fs::path store = sandbox.work("memory");
  const fs::path config = config_keeping(sandbox, store);

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
  // engram's data folder (histories kept outside a store), then the store.
  CHECK_THAT(text,
             Catch::Contains("ReadWritePaths=%t -" + (sandbox.root() / "data" / "engram").string() +
                             " -" + store.string() + "\n"));
  CHECK_THAT(text, Catch::Contains("Type=notify"));
  CHECK_THAT(text, Catch::Contains("RestartPreventExitStatus=78\n"));
  // The store does not exist yet: the daemon would leave it out, and says so.
  CHECK_THAT(installed.err, Catch::Contains("warning: " + store.string() + ": not a store yet"));
  verify_unit(sandbox, unit);
}

TEST_CASE("the packaged unit is the one service install writes for the default store") {
  const Sandbox sandbox(outside_tmp());
  REQUIRE(sandbox.engram({"init", sandbox.default_store().string()}).exit_code == 0);
  const auto installed = sandbox.engram({"service", "install", "--systemd"});
  INFO(installed.err);
  REQUIRE(installed.exit_code == 0);
  CHECK(installed.err.empty());
  const auto packaged =
      sandbox.engram({"service", "render", "--systemd", "--binary", ENGRAM_BINARY});
  REQUIRE(packaged.exit_code == 0);
  // They differ only where the data folder is: the sandbox's $XDG_DATA_HOME
  // is not the ~/.local/share the packaged unit assumes.
  std::string mine = read_file(sandbox.root() / "config" / "systemd" / "user" / "engram.service");
  const std::string data = "-" + (sandbox.root() / "data" / "engram").string();
  mine.replace(mine.find(data), data.size(), "-%h/.local/share/engram");
  CHECK(mine == packaged.out);

  const fs::path unit = sandbox.work("engram.service");
  write_file(unit, packaged.out);
  verify_unit(sandbox, unit);
}

TEST_CASE("service install refuses a store the unit's sandbox would hide, with the reason") {
  const Sandbox in_tmp(fs::path("/tmp"));
  const fs::path store = in_tmp.work("memory");
  const fs::path config = config_keeping(in_tmp, store);
  const auto refused =
      in_tmp.engram({"--config", config.string(), "service", "install", "--systemd"});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains(store.string() + ": under /tmp"));
  CHECK_THAT(refused.err, Catch::Contains("PrivateTmp=yes"));
  CHECK_FALSE(fs::exists(in_tmp.root() / "config" / "systemd" / "user" / "engram.service"));

  // A store reached through a symbolic link into /tmp is as hidden.
  const Sandbox sandbox(outside_tmp());
  const fs::path link = sandbox.work("linked-memory");
  fs::create_directories(store);
  fs::create_directory_symlink(store, link);
  const fs::path linked = config_keeping(sandbox, link);
  const auto through_link =
      sandbox.engram({"--config", linked.string(), "service", "install", "--systemd"});
  CHECK(through_link.exit_code == 2);
  CHECK_THAT(through_link.err, Catch::Contains(link.string() + ": under /tmp"));

  // launchd has no private /tmp: the same store is fine for an agent.
  const auto agent =
      in_tmp.engram({"--config", config.string(), "service", "install", "--launchd"});
  INFO(agent.err);
  CHECK(agent.exit_code == 0);
}

TEST_CASE("service install warns when the daemon would have no store to keep") {
  const Sandbox sandbox(outside_tmp());
  const auto installed = sandbox.engram({"service", "install", "--systemd"});
  REQUIRE(installed.exit_code == 0);
  CHECK_THAT(installed.err, Catch::Contains("warning: no [[store]] is configured and the default "
                                            "store " +
                                            sandbox.default_store().string() + " does not exist"));
  CHECK_THAT(installed.err, Catch::Contains("exit with status 78"));
}

TEST_CASE("a daemon with no store to keep exits with the status its unit does not restart") {
  const Sandbox sandbox(outside_tmp());
  const auto ran = engram::test::run({ENGRAM_BINARY, "daemon"}, sandbox.engram_environment());
  CHECK(ran.exit_code == 78);
  CHECK_THAT(ran.err, Catch::Contains(sandbox.default_store().string() + ": not an engram store"));
  CHECK_THAT(ran.err, Catch::Contains("nothing to keep: exiting with status 78"));
}

TEST_CASE("service install --launchd writes an agent that parses as a property list and logs to "
          "~/Library/Logs/engram") {
  const Sandbox sandbox;
  const auto installed = sandbox.engram({"service", "install", "--launchd"});
  INFO(installed.err);
  REQUIRE(installed.exit_code == 0);
  const fs::path plist =
      sandbox.root() / "home" / "Library" / "LaunchAgents" / "io.engram.daemon.plist";
  REQUIRE(fs::exists(plist));
  CHECK_THAT(installed.out, Catch::Contains("launchctl bootstrap gui/$(id -u) " + plist.string()));

  // The packaged agent is the same file for the same binary.
  const auto packaged =
      sandbox.engram({"service", "render", "--launchd", "--binary", ENGRAM_BINARY});
  CHECK(packaged.out == read_file(plist));

  REQUIRE(on_path("python3"));
  const auto parsed = engram::test::run(
      {"python3", "-c",
       "import plistlib, sys\n"
       "d = plistlib.load(open(sys.argv[1], 'rb'))\n"
       "assert d['Label'] == 'io.engram.daemon', d\n"
       "args = d['ProgramArguments']\n"
       "assert 'daemon' in args, args\n"
       "log = args[args.index('--log-file') + 1]\n"
       "assert log == '~/Library/Logs/engram/engram.log', log\n"
       "assert d['RunAtLoad'] is True and d['KeepAlive'] == {'SuccessfulExit': False}, d\n"
       "assert d['ProcessType'] == 'Background' and d['ThrottleInterval'] > 0, d\n"
       "assert 'StandardOutPath' not in d and 'StandardErrorPath' not in d, d\n"
       "print('\\n'.join(args))\n",
       plist.string()});
  INFO(parsed.err);
  REQUIRE(parsed.exit_code == 0);
  const auto args = parsed.out_lines();
  REQUIRE(args.size() == 5);
  CHECK(args.at(0) == ENGRAM_BINARY);
  CHECK(args.at(2) == "--wait-for-store");

  // Run as launchd would, with the user's HOME: the log lands in their
  // Library, and with no store it waits for one instead of exiting (launchd
  // would restart it every ThrottleInterval seconds).
  std::vector<std::string> command(args.begin(), args.end());
  const fs::path err = sandbox.root() / "agent.err";
  const pid_t agent =
      engram::test::spawn(command, sandbox.engram_environment(), sandbox.root() / "agent.out", err);
  const fs::path log = sandbox.root() / "home" / "Library" / "Logs" / "engram" / "engram.log";
  const auto logged = [&](const std::string& line) {
    return wait_until([&] { return fs::exists(log) && read_file(log).find(line) != npos; }, 20s);
  };
  REQUIRE(logged("nothing to keep: waiting for a store"));
  // A store appears; SIGHUP makes the agent look at once instead of at its next check.
  REQUIRE(sandbox.engram({"init", sandbox.default_store().string()}).exit_code == 0);
  ::kill(agent, SIGHUP);
  const bool kept = logged("ready: keeping 1 store");
  ::kill(agent, SIGTERM);
  int status = 0;
  ::waitpid(agent, &status, 0);
  INFO(read_file(log));
  CHECK(kept);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(read_file(err).empty());
}

TEST_CASE("a daemon waiting for a store stops at once on SIGTERM, with status 0") {
  const Sandbox sandbox;
  const fs::path err = sandbox.root() / "daemon.err";
  const pid_t daemon =
      engram::test::spawn({ENGRAM_BINARY, "daemon", "--wait-for-store"},
                          sandbox.engram_environment(), sandbox.root() / "daemon.out", err);
  REQUIRE(wait_until(
      [&] { return read_file(err).find("nothing to keep: waiting for a store") != npos; }, 20s));
  // SIGHUP with still no store: it looks, and goes on waiting.
  ::kill(daemon, SIGHUP);
  ::kill(daemon, SIGTERM);
  int status = 0;
  ::waitpid(daemon, &status, 0);
  INFO(read_file(err));
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK_THAT(read_file(err), Catch::Contains("stopped while waiting for a store"));
}

TEST_CASE("service uninstall removes the file and its link, and says how to stop the daemon") {
  const Sandbox sandbox(outside_tmp());
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

TEST_CASE("a real systemd user manager runs the unit, and leaves a daemon with nothing to keep "
          "stopped") {
  if (const auto why = no_user_manager(); !why.empty()) {
    WARN("the unit was not run under a real service manager: " + why);
    return;
  }
  const Sandbox sandbox(outside_tmp());
  const fs::path store = sandbox.work("memory");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const fs::path config = config_keeping(sandbox, store);
  REQUIRE(
      sandbox.engram({"--config", config.string(), "service", "install", "--systemd"}).exit_code ==
      0);
  const TransientUnit unit(
      read_file(sandbox.root() / "config" / "systemd" / "user" / "engram.service"));

  // Type=notify: `start` returns once the daemon sent READY=1.
  const auto started = TransientUnit::systemctl({"start", unit.name()});
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  CHECK(unit.property("ActiveState") == "active");
  CHECK_FALSE(unit.property("StatusText").empty()); // STATUS= reached the manager
  REQUIRE(TransientUnit::systemctl({"stop", unit.name()}).exit_code == 0);
  CHECK(unit.property("ExecMainStatus") == "0");

  // Without its store the daemon exits 78, and stays down past RestartSec=5.
  fs::remove_all(store);
  CHECK(TransientUnit::systemctl({"start", unit.name()}).exit_code != 0);
  ::sleep(7);
  CHECK(unit.property("ExecMainStatus") == "78");
  CHECK(unit.property("NRestarts") == "0");
  CHECK(unit.property("ActiveState") != "active");
}
