// Reported speech (see token_speech.hpp). Agents' notes say who said a
// thing as often as the thing ("Ryan mentioned he …"); the claim is what
// was said, and the speaker is its subject when the clause names them by a
// pronoun.
#include "claims/token_speech.hpp"

#include "engram/text.hpp"

#include <algorithm>
#include <array>

namespace engram::claims::detail {
namespace {

// Verbs that report what someone said, each with what may follow it
// before the clause ("told me", "said that").
constexpr std::array<std::string_view, 14> k_reporting = {
    " said ",      " says ",     " told me ", " told us ",   " tells me ",
    " mentioned ", " mentions ", " noted ",   " explained ", " confirmed ",
    " confirms ",  " shared ",   " wrote ",   " reported ",
};

// The most words a speaker has ("The user", "Ryan's manager Dana").
constexpr std::size_t k_speaker_words = 4;
// The fewest words the clause said has.
constexpr std::size_t k_clause_words = 3;

std::size_t count_words(std::string_view text) {
  std::size_t words = 0;
  bool in_word = false;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\t' || c == '\n';
    words += !space && !in_word ? 1 : 0;
    in_word = !space;
  }
  return words;
}

// Where the speaker starts: past a list marker ("- ", "* ", "1. ").
std::size_t speaker_start(std::string_view text) {
  auto at = std::min(text.find_first_not_of(" \t"), text.size());
  if (at + 1 < text.size() && (text[at] == '-' || text[at] == '*' || text[at] == '+') &&
      text[at + 1] == ' ') {
    at += 2;
  }
  return at;
}

} // namespace

std::string reported_as_said(std::string_view text) {
  const std::string lowered = text::lower(text);
  const auto start = speaker_start(text);
  // The first verb that reports: what comes before it is the speaker.
  auto at = std::string::npos;
  std::string_view verb;
  for (const auto reporting : k_reporting) {
    if (const auto found = lowered.find(reporting, start); found < at) {
      at = found;
      verb = reporting;
    }
  }
  if (at != std::string::npos) {
    const auto speaker = text.substr(start, at - start);
    auto clause_at = at + verb.size();
    if (lowered.compare(clause_at, 5, "that ") == 0) {
      clause_at += 5;
    }
    const auto clause = text.substr(clause_at);
    if (count_words(speaker) == 0 || count_words(speaker) > k_speaker_words ||
        speaker.find_first_of(",;:") != std::string_view::npos ||
        count_words(clause) < k_clause_words) {
      return std::string(text);
    }
    const auto first_end = std::min(clause.find(' '), clause.size());
    const auto first = text::lower(clause.substr(0, first_end));
    std::string out(text.substr(0, start));
    if (first == "he" || first == "she" || first == "they") {
      out.append(speaker).append(clause.substr(first_end));
    } else if (first == "his" || first == "her" || first == "their") {
      out.append(speaker).append("'s").append(clause.substr(first_end));
    } else {
      return std::string(text); // what was said of another: the speaker may tell it apart
    }
    return out;
  }
  return std::string(text);
}

} // namespace engram::claims::detail
