// Sentence splitting of one Markdown paragraph: ICU's sentence rules, with
// the breaks ICU gets wrong in technical prose taken back out.
#pragma once

#include "claims/source.hpp"

#include <string_view>
#include <vector>

namespace engram::claims {

// The sentences of a paragraph's source, as trimmed ranges of `paragraph`.
// Line breaks and block-quote markers inside it are read as spaces. A break
// is dropped when it falls inside inline code (`code_spans`), right after a
// known abbreviation (e.g., Dr., U.S.), or inside a word with no space after
// it (URLs, file names, versions, decimals). A hard line break (offsets in
// `hard_breaks`, just before the break) always ends a sentence.
[[nodiscard]] std::vector<Span> split_sentences(std::string_view paragraph,
                                                const std::vector<Span>& code_spans,
                                                const std::vector<std::size_t>& hard_breaks);

// Whether `word` (the text before a sentence break, ending in '.') is an
// abbreviation that does not end a sentence.
[[nodiscard]] bool is_abbreviation(std::string_view word);

} // namespace engram::claims
