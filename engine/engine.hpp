// Engine: runs the enabled rules in phase order over a workspace, each in a
// transaction of its own, and returns the plan.
#pragma once

#include "engine/plan.hpp"
#include "engine/progress.hpp"
#include "engine/workspace.hpp"
#include "engram/rule.hpp"

#include <string>
#include <vector>

namespace engram::engine {

// A rule ready to run: its name and phase from its descriptor, and the object.
struct RuleSlot {
  std::string name;
  Phase phase = Phase::index;
  bool lightweight = false; // also runs in lightweight consolidations
  Rule* rule = nullptr;     // owned by the plugin host
};

// The lower-case name of a phase.
std::string_view phase_name(Phase phase);

// Runs every enabled rule (phase order, then name) that the run kind allows.
// A rule that throws loses its own changes, is named in the record and the
// log, and the others go on. `progress`, when given, hears of each rule as it starts.
Plan run_rules(Workspace& workspace, std::vector<RuleSlot> rules, const config::Settings& settings,
               RunKind kind, Progress* progress = nullptr);

} // namespace engram::engine
