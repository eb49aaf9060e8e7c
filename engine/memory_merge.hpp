// Memory merge: two versions of one memory file that both changed since their
// merge base, joined claim by claim, as team sync needs it. A text merge can
// leave conflict markers in a memory or lose a line; this merge cannot. It
// keeps every claim either side added (live, or in a superseded marker when
// the other side's newer value replaced it), honours a claim one side deleted
// and the other left alone, and merges the frontmatter field by field.
#pragma once

#include "base/expected.hpp"
#include "store/diagnostic.hpp"

#include <cstdint>
#include <engram/date.hpp>
#include <engram/rule.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::engine {

// One side of a merge: a whole version of the file, and when it was made.
struct MergeSide {
  std::string_view text; // the whole file: frontmatter and body
  std::int64_t time = 0; // its commit time (seconds since 1970): the newer side wins a value
  std::string name;      // who holds it, for the record: "this machine", "origin/main"
};

// What a merge needs besides the versions.
struct MergeOptions {
  Date today;                  // the date of the superseded markers the merge writes
  std::string path;            // the file's store-relative path, for the record and diagnostics
  double near_threshold = 0.9; // duplicate containment: rules.episodic-decay.near_duplicate
};

// A merged file and the record of what came from where.
struct MergedMemory {
  std::string text;            // the merged file's bytes
  std::vector<Action> actions; // rule "sync": merged, superseded, removed, duplicate
};

// Merges `theirs` into `ours`, both changed since `base` (the merge base's
// version; nullopt when the file is new on both sides), claim by claim:
//  - ours is the starting point: its bytes stay but where a claim is removed,
//    replaced or given a marker;
//  - a claim theirs added that ours lacks is added under the same headings,
//    at the end of that section, or at the end of the body with the headings
//    ours lacks; a sentence of a paragraph is added as a list item
//    `- sentence`, unless it takes the place of a sentence ours loses;
//  - a claim one side added that duplicates a claim the other holds (the same
//    after normalising, or contained in it) is kept once: the one that holds
//    more, else the one both sides hold, else the newer side's, with the
//    markers of both;
//  - a value both sides changed (two new claims judged an update of each
//    other, or both updating one claim of base): the newer side's (by time,
//    then by name) stays live, the other goes into a superseded marker beside it;
//  - a claim of base one side removed or replaced and the other left as it
//    was (markers too) is removed; one that the other side changed is kept;
//  - superseded markers either side carries are kept, never nested;
//  - frontmatter, field by field: one side's change is taken; lists both
//    changed are merged as sets (an item either side removed from base stays
//    removed), `last-accessed` takes the later date, the usage counters add
//    both sides' increments, anything else takes the newer side's value.
// The live claims do not depend on which side is `ours`, and the same inputs
// give the same bytes. Returns a diagnostic, and merges nothing, when ours or
// theirs is no readable memory file (bad UTF-8 or frontmatter, conflict
// markers), a field cannot be written in place, or the merge would not read
// back as a memory file: the caller then keeps both versions as they are. A
// base that cannot be read is merged as if there were none, which removes
// nothing. Throws only what allocation throws.
[[nodiscard]] Expected<MergedMemory, store::Diagnostic>
merge_memory(std::optional<std::string_view> base, const MergeSide& ours, const MergeSide& theirs,
             const MergeOptions& options);

} // namespace engram::engine
