// Removal cap: a consolidation that would remove a large share of a store's
// memory files at once is stopped before it writes. An ordinary day's decay
// passes; a rule gone wrong, a misread layout or a years-old backlog does not
// pass unseen: the run commits nothing, says what it would remove, and names
// the flag that lets that one run through.
#pragma once

#include "config/config.hpp"
#include "engine/plan.hpp"

#include <cstddef>
#include <filesystem>

namespace engram::engine {

// Throws engram::Error, naming the files and `engram consolidate
// --allow-removals`, when `plan` removes more than guard.max_removals_per_run
// files and more than guard.max_removals_share of the `memory_files` the
// store holds. A cap of 0 is no cap.
void check_removal_cap(const std::filesystem::path& root, const Plan& plan,
                       std::size_t memory_files, const config::Settings& settings);

} // namespace engram::engine
