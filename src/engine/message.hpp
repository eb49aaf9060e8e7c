// Message: a consolidation's record rendered as a commit message, as text for
// --dry-run, and as JSON for --json. All three come from the same record.
#pragma once

#include "engine/apply.hpp"
#include "engine/plan.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace engram::engine {

// `consolidate(full): 12 claims absorbed, 3 episodic decayed, 1 merged`.
std::string summary_line(const Plan& plan);

// The commit message: summary, one line per action, deferred files, trailers.
std::string commit_message(const Plan& plan, const ApplyResult& applied);

// One line per action, for people (`engram consolidate --dry-run`).
std::string render_record(const Plan& plan);

// The record as JSON (`engram consolidate --json`).
nlohmann::json record_json(const Plan& plan, const ApplyResult* applied);

// The unified diff of every change in the plan.
std::string unified_diff(const Plan& plan);

} // namespace engram::engine
