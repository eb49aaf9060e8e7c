// What a word is to tokenising (see token_roles.hpp).
#include "claims/token_roles.hpp"

#include "claims/tokens.hpp"

#include <array>
#include <unordered_map>

namespace engram::claims {
namespace detail {
namespace {

// Words too common to say what a claim is about. Prepositions and adverbs
// that change meaning (before/after, more/less, only) are deliberately absent.
constexpr std::array<std::string_view, 84> k_stopwords = {
    "a",      "an",       "the",    "is",     "are",   "was",   "were",      "be",    "been",
    "being",  "am",       "have",   "has",    "had",   "do",    "does",      "did",   "will",
    "would",  "could",    "should", "may",    "might", "must",  "can",       "shall", "to",
    "of",     "in",       "on",     "at",     "by",    "for",   "from",      "with",  "as",
    "into",   "via",      "per",    "and",    "or",    "but",   "so",        "if",    "then",
    "than",   "this",     "that",   "these",  "those", "it",    "its",       "there", "here",
    "we",     "you",      "i",      "they",   "he",    "she",   "our",       "your",  "their",
    "my",     "his",      "her",    "also",   "just",  "now",   "currently", "still", "always",
    "really", "actually", "very",   "please", "all",   "every", "each",      "any",   "both",
    "ever",   "some",     "too",
};

// Words that negate what the claim says.
constexpr std::array<std::string_view, 14> k_negations = {
    "not",     "never", "no",     "nor",  "none",   "nothing", "cannot",
    "without", "avoid", "avoids", "dont", "doesnt", "isnt",    "cant",
};

// Month and weekday names: parts of dates, so values.
constexpr std::array<std::string_view, 30> k_date_words = {
    "january", "february",  "march",    "april",  "june",     "july",   "august", "september",
    "october", "november",  "december", "jan",    "feb",      "mar",    "apr",    "jun",
    "jul",     "aug",       "sep",      "sept",   "oct",      "nov",    "dec",    "monday",
    "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
};

// The forms of "enable" and "disable": the two values of a switch.
constexpr std::array<std::string_view, 4> k_enabling = {"enable", "enabled", "enables", "enabling"};
constexpr std::array<std::string_view, 4> k_disabling = {"disable", "disabled", "disables",
                                                         "disabling"};

} // namespace

Role role_of(std::string_view word) {
  static const auto k_roles = [] {
    std::unordered_map<std::string_view, Role> roles;
    const auto add = [&](const auto& list, Role role) {
      for (const auto entry : list) {
        roles.emplace(entry, role); // the first list naming a word decides, as before
      }
    };
    add(k_negations, Role::negation);
    add(k_date_words, Role::date);
    add(k_enabling, Role::enabling);
    add(k_disabling, Role::disabling);
    add(k_stopwords, Role::stopword);
    return roles;
  }();
  const auto it = k_roles.find(word);
  return it == k_roles.end() ? Role::none : it->second;
}

} // namespace detail

bool is_stopword(std::string_view word) {
  return detail::role_of(word) == Role::stopword;
}

bool is_negation(std::string_view word) {
  return detail::role_of(word) == Role::negation;
}

} // namespace engram::claims
