// What a claim says, reduced to the parts comparison weighs: its significant
// words, its values and its polarity.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace engram::claims {

// A claim as comparison sees it.
struct ClaimTokens {
  // Significant words, stemmed, without stopwords, negations or values; sorted, unique.
  std::vector<std::string> words;
  // Numbers, versions, dates, month and weekday names, quoted or inline-code
  // values, URLs and paths, unstemmed; sorted, unique.
  std::vector<std::string> values;
  // Whether it holds a negation (not, never, no longer, don't, without, avoid, ...).
  bool negated = false;
};

// Whether `word` (lower-case) is too common to say what a text is about.
[[nodiscard]] bool is_stopword(std::string_view word);

// The tokens of a claim's text (normalised first, so markup does not count).
[[nodiscard]] ClaimTokens tokens_of(std::string_view text);

} // namespace engram::claims
