// Words of a claim as the keyword rules see them: lower-case, apostrophes
// unified, split at anything that is not part of a word.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace engram::claims {

// The words of `text` in order: ASCII letters lower-cased, typographic
// apostrophes made ASCII, split at every byte that is not a letter, digit,
// inner apostrophe or non-ASCII character.
[[nodiscard]] std::vector<std::string> words_of(std::string_view text);

// Whether `words` holds `phrase` (space-separated words) as consecutive words.
[[nodiscard]] bool has_phrase(const std::vector<std::string>& words, std::string_view phrase);

// The index of the first occurrence of `phrase` in `words`, or words.size().
[[nodiscard]] std::size_t find_phrase(const std::vector<std::string>& words,
                                      std::string_view phrase);

// `text` without its inline code spans (`...`) and fenced code blocks.
[[nodiscard]] std::string without_code(std::string_view text);

// `text` without its fenced code blocks (inline code kept).
[[nodiscard]] std::string without_code_blocks(std::string_view text);

} // namespace engram::claims
