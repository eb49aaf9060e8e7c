// The daemon's life as a service manager sees it: READY=1 after the first
// scan, STATUS= lines, WATCHDOG=1 when asked, SIGHUP reloading, SIGTERM
// stopping cleanly even mid-consolidation, one daemon per store, and the
// commands that talk to it over its control socket.
#include "base/platform.hpp"
#include "lib/daemon_process.hpp"
#include "lib/stores.hpp"
#include "lib/time_scale.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <fmt/format.h>
#include <future>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using engram::test::DaemonProcess;
using engram::test::episodic_memory;
using engram::test::head_of;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::scaled;
using engram::test::wait_until;
using engram::test::write_file;
using namespace std::chrono_literals;

TEST_CASE("the daemon reports READY=1 and a status, and on SIGTERM STOPPING=1 and exit 0") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  CHECK_THAT(daemon.notifications().received().front(), Catch::Contains("STATUS=watching 1 store"));
  const auto status = daemon.store_status();
  // The native backend where the build has one (see cmake/Platform.cmake).
  CHECK(status.value("watcher", "") ==
        (std::string(engram::platform::name()) == "linux" ? "inotify" : "poll"));
  CHECK(status.value("state", "") == "idle");

  CHECK(daemon.stop() == 0);
  CHECK(daemon.notifications().wait_for("STOPPING=1", 1s));
  CHECK_THAT(daemon.log(), Catch::Contains("[store] watching"));
  // The socket goes with the daemon.
  CHECK(fs::is_empty(sandbox.root() / "home" / "engram"));
}

TEST_CASE("with WATCHDOG_USEC set the daemon sends WATCHDOG=1 keep-alives") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config, {{"WATCHDOG_USEC", "200000"}});
  CHECK(daemon.notifications().wait_for("WATCHDOG=1", 3s));
  CHECK(daemon.stop() == 0);
}

TEST_CASE("SIGTERM during a consolidation stops the daemon with exit 0 and a consistent store") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  // Enough expired episodic files that a full run takes a while.
  for (int n = 0; n < 150; ++n) {
    write_file(made.store / "episodic" /
                   fmt::format("2026-01-{:02}-session-{:03}.md", n % 28 + 1, n),
               episodic_memory({"shopify", "sync", fmt::format("topic{}", n % 7)}, "2026-01-01",
                               "2026-02-01",
                               fmt::format("- Session {} found the retry limit at {} attempts.\n"
                                           "- Always log the order id when session {} retries.\n",
                                           n, n + 3, n)));
  }
  REQUIRE(sandbox.git(made.store, {"add", "-A"}).exit_code == 0);
  REQUIRE(sandbox.git(made.store, {"commit", "-qm", "many sessions"}).exit_code == 0);

  DaemonProcess daemon(sandbox, made.store, made.config);
  auto answer = std::async(std::launch::async, [&] {
    try {
      return daemon.ask({{"request", "consolidate"}, {"kind", "full"}});
    } catch (const std::exception& error) {
      return nlohmann::json{{"ok", false}, {"error", error.what()}};
    }
  });
  REQUIRE(daemon.notifications().wait_for("consolidating (full", scaled(10s)));
  daemon.signal(SIGTERM);
  const auto exit_code = daemon.wait_exit(scaled(20s));
  INFO(daemon.log());
  REQUIRE(exit_code.has_value());
  CHECK(*exit_code == 0);
  CHECK_THAT(daemon.log(), Catch::Contains("stopping once the running consolidation has finished"));
  answer.wait();

  const auto fsck = sandbox.git(made.store, {"fsck", "--no-progress"});
  INFO(fsck.err);
  CHECK(fsck.exit_code == 0);
  const auto status = sandbox.git(made.store, {"status", "--porcelain"});
  CHECK(status.out.empty());
  CHECK(sandbox.engram({"check", "--store", made.store.string()}).exit_code == 0);
}

TEST_CASE("SIGHUP gives the daemon a new settle time, and a bad configuration is reported, the old "
          "kept") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  CHECK(daemon.store_status()["settings"].value("settle_ms", 0) == 100);

  write_file(made.config, "[daemon]\nsettle_ms = 777\nmax_wait_ms = 5000\n");
  daemon.signal(SIGHUP);
  INFO(daemon.log());
  REQUIRE(wait_until([&] { return daemon.store_status()["settings"].value("settle_ms", 0) == 777; },
                     5s));
  // `engram status` shows the daemon's view, through its socket.
  const auto shown = sandbox.engram(
      {"--config", made.config.string(), "status", "--store", made.store.string(), "--json"});
  REQUIRE(shown.exit_code == 0);
  const auto json = nlohmann::json::parse(shown.out);
  CHECK(json["daemon"].value("pid", 0) == daemon.pid());
  CHECK(json["daemon"]["settings"].value("settle_ms", 0) == 777);

  write_file(made.config, "[daemon]\nsettle_ms = -5\n");
  daemon.signal(SIGHUP);
  REQUIRE(wait_until(
      [&] { return daemon.log().find("keeping the one in force") != std::string::npos; }, 5s));
  CHECK(daemon.store_status()["settings"].value("settle_ms", 0) == 777);
  CHECK(daemon.stop() == 0);
}

TEST_CASE("engram consolidate while the daemon runs goes through the daemon") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto before = head_of(made.store);
  const auto result = sandbox.engram({"--config", made.config.string(), "consolidate", "--store",
                                      made.store.string(), "--now", "2026-11-22", "--json"});
  INFO(result.err);
  INFO(daemon.log());
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["daemon"].value("pid", 0) == daemon.pid());
  CHECK(json["daemon"].value("reason", "") == "request");
  REQUIRE(json["commit"].is_string());
  CHECK(head_of(made.store) == json["commit"].get<std::string>());
  CHECK(head_of(made.store) != before);
  CHECK_THAT(daemon.log(), Catch::Contains("consolidation requested (full)"));

  // The text form says who ran it; a second run finds nothing to do.
  const auto again = sandbox.engram({"--config", made.config.string(), "consolidate", "--store",
                                     made.store.string(), "--now", "2026-11-22"});
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.err, Catch::Contains(fmt::format("pid {}", daemon.pid())));
  CHECK_THAT(again.out, Catch::Contains("nothing to consolidate"));
}

TEST_CASE("a second daemon on the same store is refused, naming the first's pid") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto second =
      sandbox.engram({"--config", made.config.string(), "daemon", "--store", made.store.string()});
  // Nothing left to keep: the status a service manager does not restart.
  CHECK(second.exit_code == 78);
  CHECK_THAT(second.err, Catch::Contains(fmt::format("pid {}", daemon.pid())));
  CHECK(daemon.store_status().value("state", "") == "idle"); // the first is untouched
}

TEST_CASE("pause, resume and reload reach the daemon, and without one they say so") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  const auto control = [&](const std::string& what) {
    return sandbox.engram({"--config", made.config.string(), what, "--store", made.store.string()});
  };
  const auto alone = control("pause");
  CHECK(alone.exit_code == 1);
  CHECK_THAT(alone.err, Catch::Contains("no daemon keeps"));

  DaemonProcess daemon(sandbox, made.store, made.config);
  CHECK(control("pause").exit_code == 0);
  CHECK(daemon.store_status().value("paused", false));
  CHECK(control("resume").exit_code == 0);
  CHECK_FALSE(daemon.store_status().value("paused", true));
  const auto reloaded = control("reload");
  CHECK(reloaded.exit_code == 0);
  CHECK_THAT(reloaded.out, Catch::Contains("reloaded"));
}

TEST_CASE("engram append at the guard asks for a full run, which the daemon runs and clears") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(
      sandbox, "[guard]\nworking_chars = 700\nworking_target_chars = 500\n");
  DaemonProcess daemon(sandbox, made.store, made.config);
  const fs::path marker = made.store / ".engram" / "consolidate-requested";
  bool requested = false;
  for (int i = 0; i < 40 && !requested; ++i) {
    const auto appended =
        sandbox.engram({"--config", made.config.string(), "append", "--store", made.store.string(),
                        fmt::format("Checked the retry queue, round {}.", i)});
    REQUIRE(appended.exit_code == 0);
    requested = appended.out.find("consolidation is requested") != std::string::npos;
  }
  REQUIRE(requested);
  INFO(daemon.log());
  REQUIRE(wait_until([&] { return !fs::exists(marker); }, 10s));
  REQUIRE(daemon.wait_idle_after(0, 10s));
  CHECK_THAT(daemon.log(), Catch::Contains("(full: append-request)"));
  CHECK(sandbox.git(made.store, {"status", "--porcelain"}).out.empty());
}
