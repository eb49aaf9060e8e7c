// Discovery: the agent memory folders on this machine, found where each
// agent's documentation says it keeps them: Claude Code's per-project auto
// memory (~/.claude/projects/<project>/memory, or under CLAUDE_CONFIG_DIR),
// OpenClaw's workspaces (~/.openclaw/workspace, workspace-<profile>, or
// under OPENCLAW_STATE_DIR), Letta Code's agents (~/.letta/agents/<id>/memory
// and its local backend's memfs/<id>/memory) and basic-memory's projects (its
// config.json, ~/basic-memory or BASIC_MEMORY_HOME). Each is named with the
// profile it looks like; engram changes nothing in Letta's or basic-memory's.
#pragma once

#include "store/profile.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace engram::store {

// One folder found.
struct Found {
  std::filesystem::path path;
  Detection detection; // the profile its files look like, and why
  std::string where;   // which agent's place it was found in, in words
};

// Every agent memory folder under the places `home` and `environment` name,
// sorted by path. `environment` looks up a variable ("" when unset).
std::vector<Found> discover(const std::filesystem::path& home,
                            const std::function<std::string(const char*)>& environment);

} // namespace engram::store
