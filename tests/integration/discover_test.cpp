// `engram discover` finds the memory folders agents keep in their documented
// places under HOME, names each one's profile and state, and `--add` writes
// the ones the configuration lacks as [[store]] entries the loader accepts.
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// HOME as the sandbox sets it for engram.
fs::path home_of(const Sandbox& sandbox) {
  return sandbox.work().parent_path() / "home";
}

} // namespace

TEST_CASE("discover lists Claude Code's project memories and OpenClaw's workspaces") {
  const Sandbox sandbox;
  const fs::path home = home_of(sandbox);
  const fs::path shop = home / ".claude/projects/-home-dev-shop/memory";
  write_file(shop / "MEMORY.md", "- [User role](user_role.md) — backend developer\n");
  write_file(shop / "user_role.md",
             "---\nname: User role\ndescription: backend developer\ntype: user\n---\nGo.\n");
  fs::create_directories(home / ".claude/projects/-home-dev-blog"); // no memory yet
  const fs::path workspace = home / ".openclaw/workspace";
  write_file(workspace / "AGENTS.md", "# Agents\n");
  write_file(workspace / "SOUL.md", "# Soul\n");
  write_file(workspace / "memory/2026-08-10.md", "- a note\n");
  write_file(home / ".openclaw/workspace-work/AGENTS.md", "# Agents\n");
  write_file(home / ".openclaw/workspace-work/USER.md", "# User\n");
  ok(sandbox, {"init", shop.string()});

  const auto listed = nlohmann::json::parse(ok(sandbox, {"discover", "--json"}).out);
  REQUIRE(listed.size() == 3);
  CHECK(listed[0]["path"] == shop.string());
  CHECK(listed[0]["profile"] == "claude-code");
  CHECK(listed[0]["store"] == true);
  CHECK(listed[0]["configured"] == false);
  CHECK(listed[0]["daemon_pid"].is_null());
  CHECK(listed[1]["path"] == workspace.string());
  CHECK(listed[1]["profile"] == "openclaw");
  CHECK(listed[1]["store"] == false);
  CHECK(listed[2]["path"] == (home / ".openclaw/workspace-work").string());
  CHECK(listed[2]["profile"] == "openclaw");

  const auto text = ok(sandbox, {"discover"}).out;
  CHECK_THAT(text, Catch::Contains("Claude Code's auto memory of a project; profile claude-code"));
  CHECK_THAT(text, Catch::Contains("no daemon keeps it"));

  // --add writes them; the configuration loads, and a second --add adds nothing.
  const auto added = ok(sandbox, {"discover", "--add"});
  CHECK_THAT(added.out, Catch::Contains("added [[store]] " + shop.string()));
  const fs::path config = sandbox.work().parent_path() / "config/engram/config.toml";
  REQUIRE(fs::exists(config));
  CHECK_THAT(read_file(config), Catch::Contains("profile = \"openclaw\""));
  const auto again = nlohmann::json::parse(ok(sandbox, {"discover", "--json"}).out);
  for (const auto& folder : again) {
    CHECK(folder["configured"] == true);
  }
  CHECK_THAT(ok(sandbox, {"discover", "--add"}).out, !Catch::Contains("added"));
  const auto status =
      nlohmann::json::parse(ok(sandbox, {"status", "--store", shop.string(), "--json"}).out);
  CHECK(status["profile"]["configured"] == true);

  // With a daemon on it, discover names the daemon.
  const fs::path daemon_config_file = sandbox.work("daemon.toml");
  write_file(daemon_config_file, daemon_config("", ""));
  DaemonProcess daemon(sandbox, shop, daemon_config_file);
  const auto kept = nlohmann::json::parse(ok(sandbox, {"discover", "--json"}).out);
  CHECK(kept[0]["daemon_pid"] == daemon.pid());
  CHECK(daemon.stop() == 0);
}

TEST_CASE("discover on a machine with no agent folder says where it looked") {
  const Sandbox sandbox;
  const auto result = ok(sandbox, {"discover"});
  CHECK_THAT(result.out, Catch::Contains("no agent memory folder found"));
}
