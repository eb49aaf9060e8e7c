// Agents' memory folders as their documentation describes them, written for
// these tests: a Claude Code auto-memory folder, an OpenClaw workspace, a
// Letta Code MemFS folder and a basic-memory project.
#pragma once

#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace engram::test {

// The day the tests run on.
inline constexpr const char* k_now = "2026-11-22";

// A Claude Code auto-memory folder: MEMORY.md lists topic files, one
// `- [Title](file.md) — hook` line each; topic files carry `name`,
// `description` and `type` (user, feedback, project, reference).
inline std::filesystem::path claude_code_folder(const Sandbox& sandbox) {
  const std::filesystem::path root = sandbox.work("claude/projects/-home-dev-shop/memory");
  std::filesystem::create_directories(root);
  write_file(root / "MEMORY.md",
             "- [User role](user_role.md) — backend developer, new to the React side\n"
             "- [Testing rule](feedback_testing.md) — integration tests hit a real database\n"
             "- [Merge freeze](project_freeze.md) — no merges after Thursday\n"
             "- [Dashboards](reference_dashboards.md) — where the on-call graphs live\n");
  write_file(root / "user_role.md",
             "---\nname: User role\ndescription: backend developer, new to the React side\n"
             "type: user\n---\nThe user has written Go for ten years and is new to React.\n");
  write_file(root / "feedback_testing.md",
             "---\nname: Testing rule\ndescription: integration tests hit a real database\n"
             "type: feedback\n---\nIntegration tests must hit a real database, not mocks.\n"
             "**Why:** mocked tests passed while the migration failed.\n");
  write_file(root / "project_freeze.md",
             "---\nname: Merge freeze\ndescription: no merges after Thursday\ntype: project\n"
             "---\nNo non-critical merges after Thursday: the mobile release branch is cut.\n");
  write_file(
      root / "reference_dashboards.md",
      "---\nname: Dashboards\ndescription: where the on-call graphs live\n"
      "type: reference\n---\nThe on-call dashboards are at https://grafana.example/d/oncall.\n");
  return root;
}

// An OpenClaw workspace: a curated MEMORY.md, daily notes, and the bootstrap
// files the agent loads every session.
inline std::filesystem::path openclaw_workspace(const Sandbox& sandbox) {
  const std::filesystem::path root = sandbox.work("openclaw/workspace");
  std::filesystem::create_directories(root / "memory");
  write_file(root / "MEMORY.md", "# Long-term memory\n\n## Preferences\n\n"
                                 "- Peter prefers short answers in the morning.\n\n"
                                 "## Infrastructure\n\n- The home server runs Debian 12.\n");
  write_file(root / "AGENTS.md", "# Agents\n\nRead SOUL.md and USER.md first.\n");
  write_file(root / "SOUL.md", "# Soul\n\nBe direct and kind.\n");
  write_file(root / "USER.md", "# User\n\nPeter, in Vienna.\n");
  write_file(root / "IDENTITY.md", "# Identity\n\nName: Molty.\n");
  write_file(root / "memory" / "2026-08-10.md",
             "## 09:12 - Backups\n\n- Always check the backup log before a reboot.\n"
             "- The NAS backup runs at 02:00.\n");
  return root;
}

// A Letta Code MemFS folder at `root`: system/ files (loaded every turn), each
// with a `description` and a `limit`, a file outside system/, the sync state,
// and its own git repository with the agent's commit (made with the `git`
// command as Letta does).
inline void letta_memory(const Sandbox& sandbox, const std::filesystem::path& root) {
  std::filesystem::create_directories(root / "system" / "persona");
  write_file(root / "system" / "persona" / "soul.md",
             "---\ndescription: \"Who I am and how I work with people.\"\nlimit: 50000\n---\n"
             "I am a stateful coding assistant.\n");
  write_file(root / "system" / "human.md",
             "---\ndescription: \"What I know about the user.\"\nlimit: 20000\n---\n"
             "- Prefers small commits.\n- Works in Go and TypeScript.\n");
  write_file(root / "reference" / "deploys.md",
             "---\ndescription: \"How the service is deployed.\"\n---\n"
             "Deploys go through the staging cluster first.\n");
  write_file(root / ".sync-state.json", "{\"blocks\": {}}\n");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"init", "-q", "-b", "main"}, {"add", "-A"},
        {"-c", "user.name=Letta", "-c", "user.email=noreply@letta.com", "commit", "-q", "-m",
         "memory: initial sync"}}) {
    const auto done = sandbox.git(root, args);
    INFO(done.err);
    REQUIRE(done.exit_code == 0);
  }
}

// A basic-memory project: notes with `title`, `type`, `tags` and `permalink`,
// observation lines `- [category] fact #tag` and relation lines.
inline std::filesystem::path basic_memory_project(const Sandbox& sandbox) {
  const std::filesystem::path root = sandbox.work("basic-memory");
  write_file(root / "coffee" / "brewing.md",
             "---\ntitle: Coffee Brewing Methods\ntype: note\ntags: [coffee]\n"
             "permalink: coffee-brewing-methods\n---\n\n# Coffee Brewing Methods\n\n"
             "## Observations\n- [method] Pour over gives more clarity than French press\n"
             "- [technique] Water at 96 C extracts best #brewing\n\n## Relations\n"
             "- relates_to [[Coffee Bean Origins]]\n");
  write_file(root / "coffee" / "origins.md",
             "---\ntitle: Coffee Bean Origins\ntype: note\npermalink: coffee-bean-origins\n---\n\n"
             "# Coffee Bean Origins\n\n- [origin] Ethiopian beans suit light roasts\n");
  return root;
}

} // namespace engram::test
