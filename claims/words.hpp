// Words of a claim as the keyword rules see them: lower-case, apostrophes
// unified, split at anything that is not part of a word.
#pragma once

#include "base/text_hash.hpp"

#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace engram::claims {

// The words of `text` in order: ASCII letters lower-cased, typographic
// apostrophes made ASCII, split at every byte that is not a letter, digit,
// inner apostrophe or non-ASCII character. With `most`, only the first
// `most` of them (what a rule reading a clause's first words needs).
[[nodiscard]] std::vector<std::string>
words_of(std::string_view text, std::size_t most = std::numeric_limits<std::size_t>::max());

// `word` spelt as American English spells it, where British English spells
// it otherwise: "summarise" as "summarize", "colour" as "color",
// "neighbourhood" as "neighborhood". Both spellings of a word read alike; a
// short word ("rise", "hour") is left as it is.
[[nodiscard]] std::string american_spelling(const std::string& word);

// Whether `words` holds `phrase` (space-separated words) as consecutive words.
[[nodiscard]] bool has_phrase(const std::vector<std::string>& words, std::string_view phrase);

// The index of the first occurrence of `phrase` in `words`, or words.size().
[[nodiscard]] std::size_t find_phrase(const std::vector<std::string>& words,
                                      std::string_view phrase);

// A table of phrases matched against a text's words in one pass: each word is
// looked up once among the phrases' first words, instead of each phrase
// walking every word. found_in(words) is has_phrase(words, p) for any p.
class PhraseSet {
public:
  explicit PhraseSet(std::span<const std::string_view> phrases);

  [[nodiscard]] bool found_in(const std::vector<std::string>& words) const;

private:
  // The words of each phrase, by its first word.
  std::unordered_map<std::string, std::vector<std::vector<std::string>>, TextHash, std::equal_to<>>
      m_by_first;
};

// `text` without its inline code spans (`...`) and fenced code blocks.
[[nodiscard]] std::string without_code(std::string_view text);

// `text` without its fenced code blocks (inline code kept).
[[nodiscard]] std::string without_code_blocks(std::string_view text);

} // namespace engram::claims
