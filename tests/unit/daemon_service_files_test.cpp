// Service files rendered by the one function behind both `cmake --install`
// and `engram service install`: the binary's path, the folders it may write,
// --config passed on, escaping for each file's syntax, and the folders a
// unit's sandbox hides.
#include "daemon/service_files.hpp"

#include <catch2/catch.hpp>
#include <string>

using engram::daemon::k_exit_nothing_to_keep;
using engram::daemon::packaged_params;
using engram::daemon::render_service;
using engram::daemon::ServiceManager;
using engram::daemon::ServiceParams;
using engram::daemon::unwritable_reason;

namespace {

// Parameters for a user "ada" with engram's data folder and one store.
ServiceParams params() {
  ServiceParams made;
  made.binary = "/opt/engram/bin/engram";
  made.home = "/home/ada";
  made.config_home = "/home/ada/.config";
  made.write_paths = {"/home/ada/.local/share/engram", "/srv/memory"};
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
  CHECK_THAT(unit.content,
             Catch::Contains("ReadWritePaths=%t -%h/.local/share/engram -/srv/memory\n"));
  CHECK_THAT(unit.content, !Catch::Contains("@"));
  CHECK_THAT(unit.enable_commands.at(1), Catch::Contains("enable --now engram.service"));
}

TEST_CASE("a daemon with nothing to keep exits with a status its unit does not restart") {
  const auto unit = render_service(ServiceManager::systemd, params());
  CHECK_THAT(unit.content, Catch::Contains("RestartPreventExitStatus=" +
                                           std::to_string(k_exit_nothing_to_keep) + "\n"));
}

TEST_CASE("a unit for the default store only is the packaged unit, byte for byte") {
  auto mine = params();
  mine.write_paths = {"/home/ada/.local/share/engram", "/home/ada/.local/share/engram/memory"};
  const auto packaged = render_service(ServiceManager::systemd, packaged_params(mine.binary));
  CHECK(render_service(ServiceManager::systemd, mine).content == packaged.content);
  CHECK_THAT(packaged.content, Catch::Contains("ReadWritePaths=%t -%h/.local/share/engram\n"));
  // The plists agree too: the log is the user's own, found by engram.
  CHECK(render_service(ServiceManager::launchd, mine).content ==
        render_service(ServiceManager::launchd, packaged_params(mine.binary)).content);
}

TEST_CASE("each folder the daemon writes is listed once, and none inside another") {
  auto mine = params();
  mine.write_paths = {"/home/ada/.local/share/engram", "/home/ada/.local/share/engram/memory",
                      "/srv/memory", "/srv/memory/", "/srv/memory-two"};
  const auto unit = render_service(ServiceManager::systemd, mine);
  CHECK_THAT(unit.content, Catch::Contains("ReadWritePaths=%t -%h/.local/share/engram -/srv/memory "
                                           "-/srv/memory-two\n"));
}

TEST_CASE("paths with spaces or percent signs stay one word in the daemon's unit") {
  auto odd = params();
  odd.binary = "/opt/my tools/engram";
  odd.config = "/home/ada/100% sure.toml";
  odd.write_paths = {"/home/ada/my memory", "/srv/50% off"};
  const auto unit = render_service(ServiceManager::systemd, odd);
  CHECK_THAT(unit.content,
             Catch::Contains("ExecStart=\"/opt/my tools/engram\" --config \"/home/ada/100%% "
                             "sure.toml\" daemon\n"));
  CHECK_THAT(unit.content,
             Catch::Contains("ReadWritePaths=%t \"-%h/my memory\" \"-/srv/50%% off\"\n"));
}

TEST_CASE(
    "the launchd agent runs this binary's daemon at load, kept alive on failure, logging to Logs") {
  auto with_config = params();
  with_config.config = "/home/ada/a&b.toml";
  const auto plist = render_service(ServiceManager::launchd, with_config);
  CHECK(plist.path == "/home/ada/Library/LaunchAgents/io.engram.daemon.plist");
  CHECK_THAT(plist.content, Catch::Contains("<string>/opt/engram/bin/engram</string>\n"
                                            "    <string>--config</string>\n"
                                            "    <string>/home/ada/a&amp;b.toml</string>\n"
                                            "    <string>daemon</string>"));
  CHECK_THAT(plist.content, Catch::Contains("<key>SuccessfulExit</key>"));
  CHECK_THAT(plist.content,
             Catch::Contains("<string>--log-file</string>\n"
                             "    <string>~/Library/Logs/engram/engram.log</string>"));
  CHECK_THAT(plist.content, !Catch::Contains("@"));
}

TEST_CASE("a store the unit's sandbox hides is refused with the reason") {
  for (const char* hidden : {"/tmp/memory", "/var/tmp/memory", "/dev/shm/memory", "/proc/memory"}) {
    INFO(hidden);
    const auto reason = unwritable_reason(ServiceManager::systemd, hidden);
    REQUIRE(reason);
    CHECK_THAT(*reason, Catch::StartsWith(std::string(hidden) + ": under /"));
  }
  CHECK_THAT(*unwritable_reason(ServiceManager::systemd, "/tmp/memory"),
             Catch::Contains("PrivateTmp=yes"));
  // A launchd agent has no private /tmp: only what cannot be written is refused.
  CHECK_FALSE(unwritable_reason(ServiceManager::launchd, "/tmp/memory"));
  // Not /tmp itself: a folder whose name only begins the same.
  const auto alike = unwritable_reason(ServiceManager::systemd, "/tmpfiles-of-mine/memory");
  CHECK((!alike || alike->find("PrivateTmp") == std::string::npos));
}

TEST_CASE("a store that could never be a folder is refused with the reason") {
  const auto reason = unwritable_reason(ServiceManager::launchd, "/etc/hostname/memory");
  REQUIRE(reason);
  CHECK(*reason ==
        "/etc/hostname/memory: /etc/hostname is a file, where a folder would have to be");
}
