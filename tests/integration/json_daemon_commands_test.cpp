// `--json` on the commands that talk to a daemon or its service manager:
// pause, resume, reload and service install, uninstall and render. Each
// prints one JSON object that says what the daemon or the file system now
// holds; without a daemon the failure is an object too, exit code unchanged.
#include "lib/daemon_process.hpp"
#include "lib/json_output.hpp"
#include "lib/outside_tmp.hpp"
#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using engram::test::DaemonProcess;
using engram::test::json_of;
using engram::test::outside_tmp;
using engram::test::read_file;
using engram::test::Sandbox;

TEST_CASE("pause, resume and reload --json report the daemon's state") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox);
  const auto control = [&](const std::string& what) {
    return sandbox.engram(
        {"--config", made.config.string(), what, "--json", "--store", made.store.string()});
  };
  const auto alone = control("pause");
  CHECK(alone.exit_code == 1);
  CHECK_THAT(json_of(alone)["error"].get<std::string>(), Catch::Contains("no daemon keeps"));

  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto paused = json_of(control("pause"));
  CHECK(paused["request"] == "pause");
  CHECK(paused["paused"] == true);
  CHECK(paused["store"] == made.store.string());
  CHECK(daemon.store_status().value("paused", false) == true);

  const auto resumed = json_of(control("resume"));
  CHECK(resumed["paused"] == false);
  CHECK(daemon.store_status().value("paused", true) == false);

  const auto reloaded = json_of(control("reload"));
  CHECK(reloaded["request"] == "reload");
  CHECK(reloaded["paused"].is_null());
}

TEST_CASE("service install, uninstall and render --json say what was done to which file") {
  const Sandbox sandbox(outside_tmp());
  const auto dry =
      json_of(sandbox.engram({"service", "install", "--systemd", "--dry-run", "--json"}));
  const fs::path unit = dry.at("path").get<std::string>();
  CHECK(dry["manager"] == "systemd");
  CHECK(dry["done"] == "would_write");
  CHECK_FALSE(fs::exists(unit));
  CHECK_FALSE(dry["commands"].empty());

  const auto installed = json_of(sandbox.engram({"service", "install", "--systemd", "--json"}));
  CHECK(installed["done"] == "written");
  CHECK(read_file(unit) == installed.at("content").get<std::string>());
  const auto again = json_of(sandbox.engram({"service", "install", "--systemd", "--json"}));
  CHECK(again["done"] == "unchanged");

  const auto removed = json_of(sandbox.engram({"service", "uninstall", "--systemd", "--json"}));
  CHECK(removed["done"] == "removed");
  CHECK_FALSE(fs::exists(unit));
  const auto absent = json_of(sandbox.engram({"service", "uninstall", "--systemd", "--json"}));
  CHECK(absent["done"] == "absent");
  CHECK(absent["commands"].empty());

  const auto rendered = json_of(
      sandbox.engram({"service", "render", "--systemd", "--binary", "/opt/e/engram", "--json"}));
  CHECK_THAT(rendered["content"].get<std::string>(), Catch::Contains("/opt/e/engram daemon"));
  const auto relative =
      sandbox.engram({"service", "render", "--systemd", "--binary", "engram", "--json"});
  CHECK(relative.exit_code == 2);
  CHECK_THAT(json_of(relative)["error"].get<std::string>(), Catch::Contains("absolute path"));
}
