// Service files rendered for one user: the binary's path, the stores it may
// write, --config passed on, and escaping for each file's syntax.
#include "daemon/service_files.hpp"

#include <catch2/catch.hpp>

using engram::daemon::render_service;
using engram::daemon::ServiceManager;
using engram::daemon::ServiceParams;

namespace {

// Parameters for a user "ada" with one store.
ServiceParams params() {
  ServiceParams made;
  made.binary = "/opt/engram/bin/engram";
  made.home = "/home/ada";
  made.config_home = "/home/ada/.config";
  made.write_paths = {"/home/ada/memory"};
  return made;
}

} // namespace

TEST_CASE(
    "the systemd unit runs this binary's daemon as a notify service that may write its stores") {
  const auto unit = render_service(ServiceManager::systemd, params());
  CHECK(unit.path == "/home/ada/.config/systemd/user/engram.service");
  CHECK_THAT(unit.content, Catch::Contains("ExecStart=/opt/engram/bin/engram daemon\n"));
  CHECK_THAT(unit.content, Catch::Contains("Type=notify\n"));
  CHECK_THAT(unit.content, Catch::Contains("Restart=on-failure\n"));
  CHECK_THAT(unit.content, Catch::Contains("KillSignal=SIGTERM\n"));
  CHECK_THAT(unit.content, Catch::Contains("TimeoutStopSec=15\n"));
  CHECK_THAT(unit.content, Catch::Contains("ProtectSystem=strict\n"));
  CHECK_THAT(unit.content, Catch::Contains("ReadWritePaths=%t -/home/ada/memory\n"));
  CHECK_THAT(unit.content, !Catch::Contains("@"));
  CHECK_THAT(unit.enable_commands.at(1), Catch::Contains("enable --now engram.service"));
}

TEST_CASE("paths with spaces or percent signs stay one word in the daemon's unit") {
  auto odd = params();
  odd.binary = "/opt/my tools/engram";
  odd.config = "/home/ada/100% sure.toml";
  odd.write_paths = {"/home/ada/my memory"};
  const auto unit = render_service(ServiceManager::systemd, odd);
  CHECK_THAT(unit.content,
             Catch::Contains("ExecStart=\"/opt/my tools/engram\" --config \"/home/ada/100%% "
                             "sure.toml\" daemon\n"));
  CHECK_THAT(unit.content, Catch::Contains("ReadWritePaths=%t \"-/home/ada/my memory\"\n"));
}

TEST_CASE(
    "the launchd agent runs this binary's daemon at load, kept alive on failure, logging to Logs") {
  auto with_config = params();
  with_config.config = "/home/ada/a&b.toml";
  const auto plist = render_service(ServiceManager::launchd, with_config);
  CHECK(plist.path == "/home/ada/Library/LaunchAgents/io.engram.daemon.plist");
  CHECK(plist.log_dir == "/home/ada/Library/Logs/engram");
  CHECK_THAT(plist.content, Catch::Contains("<string>/opt/engram/bin/engram</string>\n"
                                            "    <string>--config</string>\n"
                                            "    <string>/home/ada/a&amp;b.toml</string>\n"
                                            "    <string>daemon</string>"));
  CHECK_THAT(plist.content, Catch::Contains("<key>SuccessfulExit</key>"));
  CHECK_THAT(plist.content,
             Catch::Contains("<string>/home/ada/Library/Logs/engram/engram.log</string>"));
  CHECK_THAT(plist.content, !Catch::Contains("@"));
}
