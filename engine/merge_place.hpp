// Merge place: where a claim taken from the other version goes in a body: at
// the end of the section with the same headings, else at the end of the body
// under those headings. Part of the memory merge (engine/memory_merge.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace engram::engine::merge {

// One heading in force at a point of a body.
struct Heading {
  int level = 1;
  std::string text; // as split_claims reads it: inline markup dropped
};

// The headings in force at byte `at` of `body`, outermost first.
[[nodiscard]] std::vector<Heading> headings_at(std::string_view body, std::size_t at);

// `body` with `entry` (a claim as written, with its markers; "\n" line ends)
// added where a claim under `headings` belongs: at the end of the first
// section whose heading path is theirs (a list item joining the list that
// ends it, anything else after a blank line), else at the end of the body
// under the headings it lacks. A claim with no headings goes before the
// first heading. An entry that is a section of its own (it starts with a
// heading) goes at the end.
[[nodiscard]] std::string with_entry(std::string body, const std::string& entry,
                                     const std::vector<Heading>& headings);

} // namespace engram::engine::merge
