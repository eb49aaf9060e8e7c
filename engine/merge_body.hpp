// Merge body: the merged body written from ours' bytes, changed only where the
// decisions (engine/merge_claims.hpp) say: a claim removed or replaced in
// place, markers added beside a claim, theirs' claims added under their
// headings. Part of the memory merge (engine/memory_merge.hpp).
#pragma once

#include "engine/merge_claims.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace engram::engine::merge {

// The merged body: `ours` (whose claims the decisions read) with the
// decisions applied, and the claims theirs adds taken from `theirs`. Both
// bodies have "\n" line ends. Appends a "merged" action for each claim taken
// from theirs and a "removed" one for each claim of ours removed.
[[nodiscard]] std::string merged_body(std::string_view ours, std::string_view theirs,
                                      const Decisions& decisions, const Roles& roles,
                                      std::vector<Action>& actions);

} // namespace engram::engine::merge
