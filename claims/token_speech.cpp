// Reported speech (see token_speech.hpp). Agents' notes say who said a
// thing as often as the thing ("Ryan mentioned he …"); the claim is what
// was said, and the speaker is its subject when the clause names them by a
// pronoun.
#include "claims/token_speech.hpp"

#include "claims/token_reason.hpp"
#include "claims/token_values.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

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

// Words that open an aside saying how the writer knows a claim, not what it
// says: "(confirmed at Monday's meeting)", "— verified by Dana".
constexpr std::array<std::string_view, 7> k_vouching = {
    "confirmed", "reconfirmed", "verified", "checked", "double-checked", "rechecked", "re-checked",
};
// Verbs after a pronoun that make an aside a restatement ("(she said so again)").
constexpr std::array<std::string_view, 8> k_restating = {
    "said", "says", "confirmed", "confirms", "told", "mentioned", "noted", "repeated",
};
// Words after "per" that make it a source ("per the manual"), not a rate ("per month").
constexpr std::array<std::string_view, 8> k_source_openers = {
    "the", "my", "our", "his", "her", "their", "a", "an",
};
// Words in an aside that narrow what was vouched for: "(verified in staging only)".
constexpr std::array<std::string_view, 6> k_narrowing_asides = {"not",    "only", "yet",
                                                                "except", "but",  "unless"};

// Whether `aside` says only who vouched for a claim or where it comes from.
bool vouches(std::string_view aside) {
  const auto words = lower_words(aside);
  if (words.empty() || std::any_of(words.begin(), words.end(), [](const std::string& word) {
        return is_listed(k_narrowing_asides, word);
      })) {
    return false;
  }
  const auto second = [&](std::string_view word) { return words.size() > 1 && words[1] == word; };
  const bool pronoun = words[0] == "he" || words[0] == "she" || words[0] == "they" ||
                       words[0] == "i" || words[0] == "we";
  return is_listed(k_vouching, words[0]) || (words[0] == "according" && second("to")) ||
         (words[0] == "per" && words.size() > 1 && is_listed(k_source_openers, words[1])) ||
         (pronoun && words.size() > 1 && is_listed(k_restating, words[1]));
}

} // namespace

std::string without_vouching(std::string_view text) {
  const auto end = text.find_last_not_of(" .");
  if (end == std::string_view::npos) {
    return std::string(text);
  }
  // The aside's opening: a parenthesis the text closes with, or the last dash.
  auto [open, start] = closing_aside(text);
  if (text[end] != ')') {
    for (const std::string_view dash : {" \u2014 ", " \u2013 ", " -- ", " - "}) {
      if (const auto at = text.rfind(dash);
          at != std::string_view::npos && (open == std::string_view::npos || at > open)) {
        open = at;
        start = at + dash.size();
      }
    }
  }
  const auto close = text[end] == ')' ? end : end + 1;
  if (open == std::string_view::npos || lower_words(text.substr(0, open)).size() < k_clause_words ||
      !vouches(text.substr(start, close - start))) {
    return std::string(text);
  }
  return std::string(text.substr(0, open)).append(text.substr(end + 1));
}

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
