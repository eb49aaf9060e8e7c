// Conservation: no rule may lose a line an agent wrote. After each rule, every
// line of every file it changed or removed must still be somewhere: in a file
// the rule wrote (where it was, or where it moved: a target, a superseded
// marker, the archive) or in the rule's record (a duplicate it dropped names
// the claim). A rule that loses one fails like a rule that throws, so its
// changes are discarded and the file is left as the agent wrote it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace engram::engine {

// A line a rule would lose.
struct LostLine {
  std::string path;
  int line = 1;     // 1-based, in the file as it was
  std::string text; // the line, without its end
};

// One file as it was before the rule changed it.
struct Before {
  std::string_view path;
  std::string_view bytes; // the whole file, frontmatter included
};

// The lines of `before` that are in none of `after` (the files the rule
// wrote, and its record's claims). Compared by their words, lower-cased and
// without punctuation, so a line that moved into a list item, a wrapped
// paragraph or a quoted marker is found. Not compared: frontmatter (fields
// the rules manage), headings (a section's name, not a fact; its lines are
// checked), the marker `engram append` leaves under a diverted item, and
// lines without a letter or digit.
std::vector<LostLine> lost_lines(const std::vector<Before>& before,
                                 const std::vector<std::string_view>& after);

} // namespace engram::engine
