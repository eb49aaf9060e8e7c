// Agents' own files are never replaced: a Claude Code memory folder's
// MEMORY.md (pointer lines to topic files) and an OpenClaw workspace's
// curated MEMORY.md keep every line the agent wrote through `init`,
// `consolidate` and the daemon, including a line appended while it runs.
// The folders are built from each agent's documented layout.
#include "lib/agent_folders.hpp"
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"
#include "lib/runs.hpp"
#include "lib/stores.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace engram::test;
using namespace std::chrono_literals;

namespace {

// Every line of `before` (a file's bytes) is still a line of `after`.
void check_every_line_kept(const std::string& before, const std::string& after) {
  for (const auto& line : Result{0, before, {}}.out_lines()) {
    INFO(line);
    CHECK_THAT(after, Catch::Contains(line));
  }
}

// An OpenClaw workspace whose USER.md is `user` and whose old daily note is
// `note`, consolidated once: USER.md must be left as written. Returns the
// record of the run (`engram show HEAD`); the workspace is `root`.
std::string user_file_record(const Sandbox& sandbox, const fs::path& root, const std::string& user,
                             const std::string& note) {
  write_file(root / "USER.md", user);
  write_file(root / "memory" / "2026-08-12.md", note);
  ok(sandbox, {"init", root.string()});
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  CHECK(read_file(root / "USER.md") == user);
  return ok(sandbox, {"show", "--store", root.string(), "HEAD"}).out;
}

} // namespace

TEST_CASE("a Claude Code memory folder keeps its MEMORY.md and topic files through init and "
          "consolidate") {
  const Sandbox sandbox;
  const auto root = claude_code_folder(sandbox);
  const auto index = read_file(root / "MEMORY.md");
  std::map<std::string, std::string> topics;
  for (const auto* name :
       {"user_role.md", "feedback_testing.md", "project_freeze.md", "reference_dashboards.md"}) {
    topics[name] = read_file(root / name);
  }
  const auto init = ok(sandbox, {"init", root.string()});
  CHECK_THAT(init.out, Catch::Contains("profile claude-code: Claude Code"));
  CHECK_THAT(init.out, Catch::Contains("4 pointer lines"));
  CHECK(read_file(root / "MEMORY.md") == index);
  const auto status =
      nlohmann::json::parse(ok(sandbox, {"status", "--store", root.string(), "--json"}).out);
  CHECK(status["profile"]["name"] == "claude-code");
  CHECK(status["profile"]["configured"] == false);
  REQUIRE(status["profile"]["loader_limits"].size() == 1);
  CHECK(status["profile"]["loader_limits"][0]["path"] == "MEMORY.md");
  CHECK(status["profile"]["loader_limits"][0]["lines"] == 4);
  CHECK(status["profile"]["loader_limits"][0]["max_lines"] == 200);
  CHECK(status["profile"]["loader_limits"][0]["over"] == false);
  const auto run = ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  CHECK(read_file(root / "MEMORY.md") == index);
  for (const auto& [name, bytes] : topics) {
    INFO(name);
    CHECK(read_file(root / name) == bytes);
  }
  // The index rule says why it left MEMORY.md alone.
  const auto dry =
      ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now, "--dry-run"});
  CHECK_THAT(dry.out, Catch::Contains("the agent's own file"));

  // A pointer line Claude Code appends is kept by the next run.
  const std::string added = "- [Deploys](project_deploys.md) — deploys go out on Tuesdays\n";
  write_file(root / "MEMORY.md", index + added);
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  CHECK(read_file(root / "MEMORY.md") == index + added);
  check_sound(sandbox, root);
}

TEST_CASE("with the daemon, a pointer line appended to an agent's MEMORY.md stays") {
  const Sandbox sandbox;
  const auto root = claude_code_folder(sandbox);
  ok(sandbox, {"init", root.string()});
  const fs::path config = sandbox.work("engram.toml");
  write_file(config, daemon_config("", ""));
  DaemonProcess daemon(sandbox, root, config);
  const auto index = read_file(root / "MEMORY.md");
  const auto before = head_of(root);
  const std::string added = "- [Deploys](project_deploys.md) — deploys go out on Tuesdays\n";
  {
    std::ofstream out(root / "MEMORY.md", std::ios::app | std::ios::binary);
    out << added;
  }
  // The daemon snapshots the agent's edit; its consolidation keeps it.
  REQUIRE(wait_until(
      [&] {
        const auto subjects = subjects_since(sandbox, root, before);
        return std::any_of(subjects.begin(), subjects.end(),
                           [](const std::string& s) { return s.starts_with("snapshot:"); });
      },
      20s));
  REQUIRE(daemon.wait_idle_after(0, 20s));
  CHECK(read_file(root / "MEMORY.md") == index + added);
  CHECK(daemon.stop() == 0);
}

TEST_CASE("an OpenClaw workspace keeps its curated MEMORY.md and bootstrap files") {
  const Sandbox sandbox;
  const auto root = openclaw_workspace(sandbox);
  std::map<std::string, std::string> owned;
  for (const auto* name : {"AGENTS.md", "SOUL.md", "USER.md", "IDENTITY.md"}) {
    owned[name] = read_file(root / name);
  }
  const auto memory = read_file(root / "MEMORY.md");
  const fs::path note = root / "memory" / "2026-08-10.md";
  const auto daily = read_file(note);
  const auto init = ok(sandbox, {"init", root.string()});
  CHECK_THAT(init.out, Catch::Contains("profile openclaw: OpenClaw"));
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  for (const auto& [name, bytes] : owned) {
    INFO(name);
    CHECK(read_file(root / name) == bytes);
  }
  // The curated memory keeps every line the agent wrote, and gains the
  // expired daily note's knowledge with the note's date, within what
  // OpenClaw injects.
  const auto after = read_file(root / "MEMORY.md");
  check_every_line_kept(memory, after);
  CHECK_THAT(after, Catch::Contains("Always check the backup log before a reboot. (2026-08-10)"));
  CHECK_THAT(after, Catch::Contains("The NAS backup runs at 02:00. (2026-08-10)"));
  CHECK_THAT(after, !Catch::Contains("## 09:12"));
  CHECK(after.size() <= 20000);
  CHECK_FALSE(fs::exists(root / "semantic" / "2026-08-10.md"));
  check_sound(sandbox, root);

  // The daily note is the agent's log: it stays as written, and is not taken again.
  CHECK(read_file(note) == daily);
  const auto again = ok(sandbox, {"consolidate", "--store", root.string(), "--now", "2026-11-23"});
  CHECK_THAT(again.out, !Catch::Contains("absorbed"));
  CHECK(read_file(root / "MEMORY.md") == after);
  // A line the agent adds to it later is taken once; what it gave before is not added twice.
  write_file(note, daily + "- The UPS battery was replaced in August.\n");
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", "2026-11-24"});
  const auto grown = read_file(root / "MEMORY.md");
  CHECK_THAT(grown, Catch::Contains("The UPS battery was replaced in August. (2026-08-10)"));
  const auto once = [&](const std::string& text) {
    std::size_t count = 0;
    for (auto at = grown.find(text); at != std::string::npos; at = grown.find(text, at + 1)) {
      ++count;
    }
    return count;
  };
  CHECK(once("The NAS backup runs at 02:00.") == 1);
  CHECK(once("Always check the backup log before a reboot.") == 1);
  CHECK(fs::exists(note));
  check_sound(sandbox, root);
}

TEST_CASE("an OpenClaw note's newer value lands beside the curated line it updates, which "
          "stays") {
  const Sandbox sandbox;
  const auto root = openclaw_workspace(sandbox);
  write_file(root / "memory" / "2026-08-11.md",
             "## 10:40 - Upgrades\n\n- The home server runs Debian 13.\n");
  const auto memory = read_file(root / "MEMORY.md");
  ok(sandbox, {"init", root.string()});
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  const auto after = read_file(root / "MEMORY.md");
  check_every_line_kept(memory, after);
  // The agent reads the older line and the newer one, dated, together.
  CHECK_THAT(after, Catch::Contains("## Infrastructure\n\n- The home server runs Debian 12.\n"
                                    "- The home server runs Debian 13. (2026-08-11)\n"));
  const auto shown = ok(sandbox, {"show", "--store", root.string(), "HEAD"});
  CHECK_THAT(shown.out, Catch::Contains("beside \"- The home server runs Debian 12.\", which it "
                                        "updates (the agent's line stays as written)"));
  check_sound(sandbox, root);
}

TEST_CASE("an OpenClaw note's claim that USER.md, TOOLS.md or AGENTS.md states is not added to "
          "MEMORY.md again") {
  const Sandbox sandbox;
  const auto root = openclaw_workspace(sandbox);
  write_file(root / "USER.md", "# USER.md - About Your Human\n\n- **Name:** Peter\n"
                               "- Peter lives in Vienna.\n- Prefers short answers.\n");
  write_file(root / "TOOLS.md", "# TOOLS.md\n\n- The NAS is reachable at nas.lan.\n");
  write_file(root / "AGENTS.md", "# Agents\n\nRead SOUL.md and USER.md first.\n\n"
                                 "- Never reboot the NAS during a backup.\n");
  write_file(root / "memory" / "2026-08-12.md",
             "## 08:00 - Notes\n\n- Prefers short answers.\n- The NAS is reachable at nas.lan.\n"
             "- Never reboot the NAS during a backup.\n- Peter lives in Graz now.\n"
             "- The printer is in the hallway.\n");
  std::map<std::string, std::string> owned;
  for (const auto* name : {"AGENTS.md", "SOUL.md", "USER.md", "IDENTITY.md", "TOOLS.md"}) {
    owned[name] = read_file(root / name);
  }
  ok(sandbox, {"init", root.string()});
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  const auto after = read_file(root / "MEMORY.md");
  CHECK_THAT(after, !Catch::Contains("Prefers short answers"));
  CHECK_THAT(after, !Catch::Contains("nas.lan"));
  CHECK_THAT(after, !Catch::Contains("Never reboot the NAS"));
  CHECK_THAT(after, Catch::Contains("- The printer is in the hallway. (2026-08-12)"));
  // Newer than USER.md's line, which stays as the agent wrote it: the agent
  // reads both, and the record says which line it is newer than.
  CHECK_THAT(after, Catch::Contains("- Peter lives in Graz now. (2026-08-12)"));
  for (const auto& [name, bytes] : owned) {
    INFO(name);
    CHECK(read_file(root / name) == bytes);
  }
  const auto touched = sandbox.git(root, {"diff", "--name-only", "HEAD~1", "HEAD"});
  CHECK_THAT(touched.out, !Catch::Contains("USER.md") && !Catch::Contains("TOOLS.md") &&
                              !Catch::Contains("AGENTS.md"));
  const auto shown = ok(sandbox, {"show", "--store", root.string(), "HEAD"});
  CHECK_THAT(shown.out, Catch::Contains("memory/2026-08-12.md → USER.md (already in the agent's "
                                        "own file as \"- Prefers short answers.\")"));
  CHECK_THAT(shown.out, Catch::Contains("memory/2026-08-12.md → TOOLS.md"));
  CHECK_THAT(shown.out, Catch::Contains("newer than \"- Peter lives in Vienna.\" in USER.md, the "
                                        "agent's own file, which engram leaves as written"));
  // OpenClaw loads TOOLS.md whole every session: recall does not offer it again.
  const auto recalled = ok(sandbox, {"recall", "--store", root.string(), "NAS reachable"});
  CHECK_THAT(recalled.out, !Catch::Contains("TOOLS.md"));
  // Nothing the note said is lost: each claim is in a file or in the record.
  check_every_line_kept("- Prefers short answers.\n- The NAS is reachable at nas.lan.\n"
                        "- Never reboot the NAS during a backup.\n",
                        all_text(root));
  check_sound(sandbox, root);
}

TEST_CASE("an OpenClaw note that names the user meets the USER.md line that leaves them "
          "unwritten") {
  const Sandbox sandbox;
  const auto root = openclaw_workspace(sandbox);
  const auto shown = user_file_record(
      sandbox, root,
      "# USER.md - About Your Human\n\n- **Name:** Ana Ferreira\n"
      "- **What to call them:** Ana\n- **Timezone:** Europe/Lisbon\n"
      "- **Location:** Lisbon\n\n## Context\n\n"
      "- Prefers short answers.\n- User is vegetarian.\n",
      "## 08:00 - Notes\n\n- Ana prefers short answers.\n- The user is vegetarian.\n"
      "- Ana's timezone is now America/Denver.\n- Ana's location is now Porto.\n"
      "- Ana's sister prefers short answers.\n- Ben's timezone is Asia/Tokyo.\n");
  const auto after = read_file(root / "MEMORY.md");
  // What USER.md says already is not filed again.
  CHECK_THAT(after, !Catch::Contains("Ana prefers short answers"));
  CHECK_THAT(after, !Catch::Contains("The user is vegetarian"));
  // A newer value is filed, and its record names the line it is newer than.
  CHECK_THAT(after, Catch::Contains("- Ana's timezone is now America/Denver. (2026-08-12)"));
  CHECK_THAT(after, Catch::Contains("- Ana's location is now Porto. (2026-08-12)"));
  // Someone else's preference or timezone is not the user's.
  CHECK_THAT(after, Catch::Contains("- Ana's sister prefers short answers. (2026-08-12)"));
  CHECK_THAT(after, Catch::Contains("- Ben's timezone is Asia/Tokyo. (2026-08-12)"));
  CHECK_THAT(shown, Catch::Contains("(already in the agent's own file as \"- Prefers short "
                                    "answers.\")"));
  CHECK_THAT(shown, Catch::Contains("(already in the agent's own file as \"- User is "
                                    "vegetarian.\")"));
  CHECK_THAT(shown, Catch::Contains("newer than \"- **Timezone:** Europe/Lisbon\" in USER.md"));
  CHECK_THAT(shown, Catch::Contains("newer than \"- **Location:** Lisbon\" in USER.md"));
  for (const char* other :
       {"Ana's sister prefers short answers.", "Ben's timezone is Asia/Tokyo."}) {
    CHECK_THAT(shown, Catch::Contains(fmt::format("\"- {}\": memory/2026-08-12.md → MEMORY.md "
                                                  "(into the agent's curated memory, dated "
                                                  "2026-08-12)\n",
                                                  other)));
  }
  check_sound(sandbox, root);
}

TEST_CASE("an OpenClaw USER.md line that opens with what the user does is the user's") {
  const Sandbox sandbox;
  const auto root = openclaw_workspace(sandbox);
  const auto shown =
      user_file_record(sandbox, root,
                       "# USER.md - About Your Human\n\n- **Name:** Dario Conti\n"
                       "- **What to call them:** Dario\n\n## Context\n\n"
                       "- Smokes occasionally.\n- Learning Spanish.\n",
                       "## 08:00 - Notes\n\n- Dario quit smoking in February.\n"
                       "- Dario switched from learning Spanish to learning Portuguese.\n"
                       "- Dario's brother smokes occasionally.\n");
  // The user's habit changed: each note is newer than the line it changes.
  CHECK_THAT(shown, Catch::Contains("newer than \"- Smokes occasionally.\" in USER.md"));
  CHECK_THAT(shown, Catch::Contains("newer than \"- Learning Spanish.\" in USER.md"));
  // Someone else's habit is not the user's: filed, naming no line of USER.md.
  CHECK_THAT(shown, Catch::Contains("\"- Dario's brother smokes occasionally.\": "
                                    "memory/2026-08-12.md → MEMORY.md (into the agent's "
                                    "curated memory, dated 2026-08-12)\n"));
  check_sound(sandbox, root);
}

TEST_CASE("an OpenClaw note that the user changed a labelled thing for another, or was "
          "promoted, is newer than the USER.md line, and a setting of the thing is not") {
  const Sandbox sandbox;
  const auto root = openclaw_workspace(sandbox);
  const auto shown =
      user_file_record(sandbox, root,
                       "# USER.md - About Your Human\n\n- **Name:** Chris Walker\n"
                       "- **What to call them:** Chris\n\n## Context\n\n"
                       "- **Phone:** iPhone 12\n- **Role:** Senior designer at Figma\n",
                       "## 08:00 - Notes\n\n- Chris upgraded his phone to an iPhone 15.\n"
                       "- Chris was promoted to design director at Figma.\n"
                       "- Chris switched his phone to silent mode.\n");
  CHECK_THAT(shown, Catch::Contains("newer than \"- **Phone:** iPhone 12\" in USER.md"));
  CHECK_THAT(shown,
             Catch::Contains("newer than \"- **Role:** Senior designer at Figma\" in USER.md"));
  CHECK_THAT(shown, Catch::Contains("\"- Chris switched his phone to silent mode.\": "
                                    "memory/2026-08-12.md → MEMORY.md (into the agent's "
                                    "curated memory, dated 2026-08-12)\n"));
  check_sound(sandbox, root);
}

TEST_CASE("an OpenClaw MEMORY.md near its injection limit stays under it, the rest filed "
          "elsewhere") {
  const Sandbox sandbox;
  const auto root = openclaw_workspace(sandbox);
  std::string memory = read_file(root / "MEMORY.md") + "\n## Journal\n\n";
  for (int i = 0; memory.size() < 19950; ++i) {
    memory += "- Entry " + std::to_string(i) + " of the long journal.\n";
  }
  write_file(root / "MEMORY.md", memory);
  ok(sandbox, {"init", root.string()});
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  const auto after = read_file(root / "MEMORY.md");
  CHECK(after == memory);
  CHECK(after.size() <= 20000);
  check_every_line_kept("- Always check the backup log before a reboot.\n"
                        "- The NAS backup runs at 02:00.\n",
                        all_text(root));
  check_sound(sandbox, root);
}

TEST_CASE("a store's profile is read from its [[store]] section, and a wrong one is named at its "
          "line") {
  const Sandbox sandbox;
  const auto root = openclaw_workspace(sandbox);
  const fs::path config = sandbox.work("engram.toml");
  write_file(config, "[[store]]\npath = \"" + root.string() + "\"\nprofile = \"openclaw\"\n");
  REQUIRE(sandbox.engram({"--config", config.string(), "init", root.string()}).exit_code == 0);
  const auto status = nlohmann::json::parse(
      ok(sandbox, {"--config", config.string(), "status", "--store", root.string(), "--json"}).out);
  CHECK(status["profile"]["name"] == "openclaw");
  CHECK(status["profile"]["configured"] == true);
  CHECK(status["profile"]["loader_limits"].size() == 6);
  const auto text =
      ok(sandbox, {"--config", config.string(), "status", "--store", root.string()}).out;
  CHECK_THAT(text, Catch::Contains("profile  openclaw (OpenClaw, configured)"));

  write_file(config, "[[store]]\npath = \"" + root.string() + "\"\nprofile = \"zep\"\n");
  const auto refused =
      sandbox.engram({"--config", config.string(), "status", "--store", root.string()});
  CHECK(refused.exit_code != 0);
  CHECK_THAT(refused.err, Catch::Contains("engram.toml:3: a store's 'profile' must be one of"));
}

TEST_CASE("engram's own store and an empty folder are four-layer") {
  const Sandbox sandbox;
  const auto store = sandbox.work("store");
  const auto init = ok(sandbox, {"init", store.string()});
  CHECK_THAT(init.out, Catch::Contains("profile four-layer"));
  const auto status =
      nlohmann::json::parse(ok(sandbox, {"status", "--store", store.string(), "--json"}).out);
  CHECK(status["profile"]["name"] == "four-layer");
  CHECK(status["profile"]["loader_limits"].empty());
}
