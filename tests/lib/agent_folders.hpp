// Agents' memory folders as their documentation describes them, written for
// these tests: a Claude Code auto-memory folder and an OpenClaw workspace.
#pragma once

#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <filesystem>

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

} // namespace engram::test
