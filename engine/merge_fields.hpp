// Merge fields: the frontmatter of two versions of a memory file, merged
// field by field against their merge base. Part of the memory merge
// (engine/memory_merge.hpp).
#pragma once

#include "store/memory_file.hpp"

namespace engram::engine::merge {

// Merges the frontmatter of `theirs` into `merged` (ours, edited in place),
// three-way against `base` (nullptr: none, so every difference is a change
// on both sides). A field one side changed takes that side's value, written
// as that side wrote it; changed on both, a list takes both sides' items (an
// item either side removed from base stays removed), `last-accessed` the
// later date, a usage counter both sides' increments, anything else the
// value of the newer side. A field one side removed and the other changed is
// kept. Throws Error when a value cannot be written in place.
void merge_fields(store::MemoryFile& merged, const store::MemoryFile* base,
                  const store::MemoryFile& theirs, bool theirs_newer);

} // namespace engram::engine::merge
