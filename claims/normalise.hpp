// The normal form in which claims are compared: two claims that say the same
// thing with different Markdown, case, Unicode composition or line wrapping
// have the same normal form.
#pragma once

#include <string>
#include <string_view>

namespace engram::claims {

// Whether folding keeps inline code's backticks.
enum class KeepBackticks { yes, no };

// `text` folded for comparison, trailing punctuation kept: HTML comments,
// block-quote markers, list markers, task boxes and emphasis markers (*, _,
// ~~ at word edges) removed; typographic quotes made ASCII; Unicode case-folded
// and NFC-composed; whitespace and line wraps collapsed to single spaces.
[[nodiscard]] std::string fold(std::string_view text, KeepBackticks backticks);

// One line without its block-quote prefix, list marker and task box.
[[nodiscard]] std::string_view strip_line_start(std::string_view line);

// The normal form of a claim: `fold` without backticks, and without trailing
// punctuation (. , ; : ! ? … and their full-width forms).
[[nodiscard]] std::string normalise(std::string_view text);

} // namespace engram::claims
