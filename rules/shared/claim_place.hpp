// Where a claim stands in a body. A rule that edits a claim finds it by its
// text, and the same words can also stand where they are not the claim: quoted
// in a superseded marker (the claim was superseded once, then learned again),
// or inside a longer line. Editing there would write into the marker, nesting
// one marker in another, and leave the live claim as it was.
#pragma once

#include <string_view>

namespace engram::knowledge {

// Whether byte `at` of `body` lies inside an HTML comment (`<!--` up to the
// first `-->`; an unclosed `<!--` is text, as comments_of reads it).
inline bool inside_comment(std::string_view body, std::size_t at) {
  const auto open = body.rfind("<!--", at);
  if (open == std::string_view::npos) {
    return false;
  }
  const auto close = body.find("-->", open + 4);
  return close != std::string_view::npos && at < close + 3;
}

// Where the claim `text` stands in `body` from `from` on: its first
// occurrence that is outside every HTML comment and starts a line or follows
// a space or a block quote's `>`, as the splitter's claims do; npos when
// there is none.
inline std::size_t find_claim(std::string_view body, std::string_view text, std::size_t from = 0) {
  if (text.empty()) {
    return std::string_view::npos;
  }
  for (auto at = body.find(text, from); at != std::string_view::npos;
       at = body.find(text, at + 1)) {
    const char before = at == 0 ? '\n' : body[at - 1];
    const bool starts = before == '\n' || before == ' ' || before == '\t' || before == '>';
    if (starts && !inside_comment(body, at)) {
      return at;
    }
  }
  return std::string_view::npos;
}

} // namespace engram::knowledge
