// Consolidation: one run over one store, end to end: snapshot the store, run
// the rules, then either show the plan (dry run) or apply and commit it.
#pragma once

#include "config/config.hpp"
#include "engine/apply.hpp"
#include "engine/engine.hpp"
#include "engine/plan.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace engram::engine {

// Whether a consolidation writes anything.
enum class DryRun { yes, no };

// What a consolidation did.
struct Outcome {
  Plan plan;
  ApplyResult applied;
  std::optional<std::string> snapshot_commit; // the agent's changes, committed first
  std::optional<std::string> commit;          // the consolidation's own commit
};

// Runs `rules` over the store at `root` and, unless dry, applies and commits
// the plan. Throws engram::Error when the store cannot be consolidated (no
// repository, a commit that fails); nothing is half-done in that case.
Outcome consolidate(const std::filesystem::path& root, const config::Settings& settings,
                    const std::vector<RuleSlot>& rules, Date today, RunKind kind, DryRun dry);

// The layout a store's settings describe.
store::Layout layout_from(const config::Settings& settings);

} // namespace engram::engine
