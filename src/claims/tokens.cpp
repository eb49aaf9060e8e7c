// Tokenising for comparison. Values are kept whole and unstemmed ("v1.4.2" is
// one value, "1.4.2" the same one) because a changed value is what makes an
// update; words are stemmed with the same Snowball stemmer tags use, so
// "returns" and "returning" agree.
#include "claims/tokens.hpp"

#include "claims/normalise.hpp"
#include "claims/words.hpp"
#include "store/tags.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace engram::claims {
namespace {

// Words too common to say what a claim is about. Prepositions and adverbs
// that change meaning (before/after, more/less, only) are deliberately absent.
constexpr std::array<std::string_view, 74> k_stopwords = {
    "a",     "an",     "the",    "is",    "are",       "was",   "were",   "be",     "been",
    "being", "am",     "have",   "has",   "had",       "do",    "does",   "did",    "will",
    "would", "could",  "should", "may",   "might",     "must",  "can",    "shall",  "to",
    "of",    "in",     "on",     "at",    "by",        "for",   "from",   "with",   "as",
    "into",  "via",    "per",    "and",   "or",        "but",   "so",     "if",     "then",
    "than",  "this",   "that",   "these", "those",     "it",    "its",    "there",  "here",
    "we",    "you",    "i",      "they",  "he",        "she",   "our",    "your",   "their",
    "my",    "also",   "just",   "now",   "currently", "still", "always", "really", "actually",
    "very",  "please",
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

// What a word is to tokenising, when it is one of the lists above.
enum class Role : unsigned char { none, negation, date, enabling, disabling, stopword };

// The role of `word`: one hash lookup, where searching each list in turn
// compared every word of every claim with 126 others.
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

// `token` without the punctuation around it.
std::string_view trim_token(std::string_view token) {
  constexpr std::string_view k_before = "([{<'*";
  constexpr std::string_view k_after = ")]}>.,;:!?'*";
  while (!token.empty() && k_before.find(token.front()) != std::string_view::npos) {
    token.remove_prefix(1);
  }
  while (!token.empty() && k_after.find(token.back()) != std::string_view::npos) {
    token.remove_suffix(1);
  }
  return token;
}

// Whether a token is a value: a URL, a path, or anything with a digit.
bool is_value(std::string_view token) {
  if (token.find("://") != std::string_view::npos || token.starts_with("www.")) {
    return true;
  }
  if (token.starts_with("/") || token.starts_with("~/") || token.starts_with("./") ||
      token.starts_with("../") || token.find('\\') != std::string_view::npos) {
    return true;
  }
  if (token.find('/') != std::string_view::npos && token.find('.') != std::string_view::npos) {
    return true;
  }
  return std::any_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A value in the form values compare in: "v1.4" as "1.4", "1,000" as "1000".
std::string canonical_value(std::string_view token) {
  std::string value;
  for (std::size_t i = 0; i < token.size(); ++i) {
    const char c = token[i];
    const bool digit_before = i > 0 && token[i - 1] >= '0' && token[i - 1] <= '9';
    const bool digit_after = i + 1 < token.size() && token[i + 1] >= '0' && token[i + 1] <= '9';
    if (i == 0 && c == 'v' && digit_after) {
      continue;
    }
    if (c == ',' && digit_before && digit_after) {
      continue;
    }
    value += c;
  }
  return value;
}

// The end of a quoted value opened at `open` by `quote`, or npos. A single
// quote opens only at a word start and closes only at a word end, so the
// apostrophe in "don't" is no quote.
std::size_t quote_end(const std::string& text, std::size_t open, char quote) {
  if (quote == '\'' && open > 0 && text[open - 1] != ' ') {
    return std::string::npos;
  }
  constexpr std::string_view k_word_end = " .,;:!?)]";
  for (auto close = text.find(quote, open + 1); close != std::string::npos;
       close = text.find(quote, close + 1)) {
    const bool at_word_end =
        close + 1 == text.size() || k_word_end.find(text[close + 1]) != std::string_view::npos;
    if (quote != '\'' || at_word_end) {
      return close > open + 1 ? close : std::string::npos;
    }
  }
  return std::string::npos;
}

// Sorts and removes repeats.
void sort_unique(std::vector<std::string>& list) {
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
}

} // namespace

bool is_stopword(std::string_view word) {
  return role_of(word) == Role::stopword;
}

ClaimTokens tokens_of(std::string_view text) {
  const std::string folded = fold(text, KeepBackticks::yes);
  ClaimTokens tokens;
  std::vector<std::string> plain; // words in order, for "no longer"
  std::size_t i = 0;
  while (i < folded.size()) {
    const char c = folded[i];
    if (c == ' ') {
      ++i;
      continue;
    }
    if (c == '`' || c == '"' || c == '\'') {
      const auto close = quote_end(folded, i, c);
      if (close != std::string::npos) {
        tokens.values.push_back(folded.substr(i, close - i + 1));
        i = close + 1;
        continue;
      }
    }
    auto end = i + 1;
    while (end < folded.size() && folded[end] != ' ' && folded[end] != '`' && folded[end] != '"') {
      ++end;
    }
    const auto token = trim_token(std::string_view(folded).substr(i, end - i));
    i = end;
    if (token.empty()) {
      continue;
    }
    if (is_value(token)) {
      tokens.values.push_back(canonical_value(token));
      continue;
    }
    for (auto& word : words_of(token)) {
      plain.push_back(std::move(word));
    }
  }
  for (std::size_t w = 0; w < plain.size(); ++w) {
    auto word = plain[w];
    if (word.ends_with("'s")) {
      word.resize(word.size() - 2);
    }
    const auto role = role_of(word);
    if (role == Role::negation || word.ends_with("n't")) {
      tokens.negated = true;
      if (word == "no" && w + 1 < plain.size() && plain[w + 1] == "longer") {
        ++w;
      }
      continue;
    }
    const auto singular = word.ends_with("days") ? word.substr(0, word.size() - 1) : word;
    const auto singular_role = singular.size() == word.size() ? role : role_of(singular);
    if (singular_role == Role::date || word == "true" || word == "false") {
      tokens.values.push_back(singular); // "on Fridays" and "on Friday" name the same day
      continue;
    }
    // A switch has two values, whatever the verb's form: "enable retries" and
    // "retries are enabled" say the same, "disable retries" the opposite.
    if (role == Role::enabling) {
      tokens.values.emplace_back("enabled");
      continue;
    }
    if (role == Role::disabling) {
      tokens.values.emplace_back("disabled");
      continue;
    }
    if (role == Role::stopword) {
      continue;
    }
    std::erase(word, '\'');
    auto stem = store::canonical_tag(word);
    if (!stem.empty()) {
      tokens.words.push_back(std::move(stem));
    }
  }
  sort_unique(tokens.words);
  sort_unique(tokens.values);
  return tokens;
}

} // namespace engram::claims
