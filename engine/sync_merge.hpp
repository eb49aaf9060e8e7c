// Sync merge: what merging the remote's commit into the store changes, file
// by file, computed from the history alone before anything is written.
#pragma once

#include "engine/plan.hpp"
#include "engram/date.hpp"
#include "engram/rule.hpp"
#include "git/repository.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace engram::engine {

// What the merge needs besides the three commits.
struct MergeContext {
  Date today{1970, 1, 1}; // dates the superseded markers a merge writes
  double near_threshold = 0.0;
  std::string remote_name;    // how the record names the remote's side ("origin <url>")
  std::int64_t ours_time = 0; // commit times: where both sides changed a value, the newer wins
  std::int64_t theirs_time = 0;
};

// The changes that merge `theirs` into `ours` (HEAD, whose files are on disk),
// from their common ancestor `base` (nullopt: none), and what they do.
struct MergePlan {
  std::vector<FileChange> changes;      // in plan order: writes by path, then removals
  std::vector<Action> record;           // claim by claim, and file by file
  std::vector<std::string> kept_beside; // the remote's copies kept beside ours
};

// A file only one side changed takes that side's version. A file both
// changed: a memory file is merged claim by claim (merge_memory); a file
// engram generates keeps ours, to be generated again from the merged files;
// a file one side removed and the other edited is kept as edited; any other
// file keeps ours, and the remote's copy is kept beside it under a name of
// its own. Nothing either side wrote is dropped. Throws engram::Error when
// the history cannot be read.
MergePlan merge_plan(const git::Repository& repository, const std::optional<std::string>& base,
                     const std::string& ours, const std::string& theirs,
                     const MergeContext& context);

} // namespace engram::engine
