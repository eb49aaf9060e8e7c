// Usage fold: the usage log summed into the memories' frontmatter during a
// consolidation — `last-accessed`, `uses`, `helpful`, `unhelpful` — as the
// first step over the workspace, before the rules, so forgetting and
// promotion see the counts this run commits. Every other byte of a file stays.
#pragma once

#include "engine/workspace.hpp"
#include "store/layout.hpp"
#include "usage/tally.hpp"

#include <map>
#include <string>

namespace engram::engine {

// The rule name the fold's actions are recorded under.
inline constexpr const char* k_usage_actor = "usage";

// Adds each file's tally to its frontmatter in `workspace` and records one
// `used` action per file. A file that is gone (or not a memory of a layer
// that is recalled) is `dropped` with a note; a count that is not a whole
// number, or a `last-accessed` that is not a date, is diagnosed and left as
// the user wrote it.
void fold_usage(Workspace& workspace, const store::Layout& layout,
                const std::map<std::string, usage::Tally>& tallies);

} // namespace engram::engine
