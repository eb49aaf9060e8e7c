// Reasons said after a claim (see token_reason.hpp). A claim compares by
// what it states: a true fact written with its reason is the same fact, and
// "the 2025 test was negative" does not make "is not allergic" hold in a
// scope called "test".
#include "claims/token_reason.hpp"

#include "engram/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace engram::claims::detail {
namespace {

// The fewest words a claim keeps before its reason.
constexpr std::size_t k_claim_words = 3;
// The fewest words a reason after a dash has: "— not npm" names a thing.
constexpr std::size_t k_reason_words = 3;

// Words that open a reason whatever follows them.
constexpr std::array<std::string_view, 3> k_reason_openers = {"because", "otherwise", "so"};

// Words that open what is no clause of its own, after a dash: an
// exception, a condition, a next step, a thing named ("— except hotfixes",
// "— then restart the workers", "— not npm", "— only tagged releases").
constexpr std::array<std::string_view, 24> k_not_clause_openers = {
    "except", "unless",  "only",      "not",       "then", "and", "or",         "but",
    "if",     "when",    "while",     "until",     "for",  "in",  "on",         "at",
    "with",   "without", "including", "excluding", "e.g",  "i.e", "especially", "even",
};

// Words after which an "-ed" word describes a noun ("all tagged releases"),
// not a verb a clause of its own has.
constexpr std::array<std::string_view, 10> k_determiners = {
    "a", "an", "the", "all", "some", "any", "every", "each", "no", "only",
};

// Finite verbs a clause of its own may have that their shape does not show.
constexpr std::array<std::string_view, 24> k_finite_verbs = {
    "is",    "are",  "was",  "were", "has",   "have", "had",   "got",
    "gets",  "did",  "does", "will", "would", "can",  "could", "should",
    "broke", "made", "took", "went", "ran",   "kept", "lost",  "fell",
};

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Whether `tail`, after a dash, a semicolon or a parenthesis, is a reason:
// opened by a reason's word, or a clause of its own, with a verb after its
// first word ("— newer minors broke the build", "— the release slipped").
// After a claim that says what no longer holds, words enough after a
// semicolon or a dash are a clause of their own whatever their verb: what
// holds instead ("… no longer taken by phone; customers order online",
// "Never run migrations by hand — use the migrate job"). After any other
// claim they may state a second fact, which must stay in what is compared.
bool is_reason(std::string_view tail, bool instead = false) {
  const auto words = lower_words(tail);
  if (words.empty()) {
    return false;
  }
  if (listed(k_reason_openers, words.front())) {
    return words.size() >= 2;
  }
  if (words.size() < k_reason_words || listed(k_not_clause_openers, words.front())) {
    return false;
  }
  if (instead) {
    return true;
  }
  for (std::size_t i = 1; i < words.size(); ++i) {
    const bool described = listed(k_determiners, words[i - 1]);
    if (listed(k_finite_verbs, words[i]) ||
        (words[i].size() >= 5 && words[i].ends_with("ed") && !described)) {
      return true;
    }
  }
  return false;
}

// Whether `claim` says what holds no more: "no longer", "not", "never", "n't".
bool says_no_longer(std::string_view claim) {
  const auto words = lower_words(claim);
  return std::any_of(words.begin(), words.end(), [](const std::string& word) {
    return word == "not" || word == "never" || word == "longer" || word.ends_with("n't");
  });
}

// Whether `text` has a blank line (or one of spaces) between two lines of words.
bool several_paragraphs(std::string_view text) {
  bool words_before = false;
  bool blank_since = false;
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto end = std::min(text.find('\n', at), text.size());
    const bool blank =
        text.substr(at, end - at).find_first_not_of(" \t\r") == std::string_view::npos;
    if (!blank && words_before && blank_since) {
      return true;
    }
    words_before = words_before || !blank;
    blank_since = blank_since || (blank && words_before);
    at = end + 1;
  }
  return false;
}

// Whether `claim` has words enough to be a claim of its own.
bool is_claim(std::string_view claim) {
  return lower_words(claim).size() >= k_claim_words;
}

} // namespace

std::pair<std::size_t, std::size_t> closing_aside(std::string_view text) {
  auto end = text.find_last_not_of(" .");
  if (end == std::string_view::npos || text[end] != ')') {
    return {std::string_view::npos, 0};
  }
  const auto open = text.rfind(" (", end);
  if (open == std::string_view::npos || text.find(')', open) != end) {
    return {std::string_view::npos, 0};
  }
  return {open, open + 2};
}

std::vector<std::string> lower_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  const auto flush = [&] {
    while (!word.empty() && std::ispunct(static_cast<unsigned char>(word.back())) != 0) {
      word.pop_back();
    }
    if (!word.empty()) {
      words.push_back(std::move(word));
    }
    word.clear();
  };
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n') {
      flush();
    } else if (!word.empty() || std::ispunct(static_cast<unsigned char>(c)) == 0) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  flush();
  return words;
}

std::string without_reason(std::string_view text, std::string& reason) {
  reason.clear();
  // Read without its comments (a superseded marker's words are no reason),
  // and only as one paragraph: a section of several ("## Solution: …") has
  // labels, not reasons, after its colons.
  const std::string plain = text::without_comments(text);
  if (several_paragraphs(plain)) {
    return std::string(text);
  }
  // Each break, the first that opens a reason: a claim's end and its reason's start.
  constexpr std::array<std::string_view, 6> k_breaks = {" \u2014 ", " \u2013 ", " -- ",
                                                        " - ",      "; ",       ": "};
  const std::string_view all = plain;
  std::size_t best = std::string_view::npos;
  std::size_t from = 0;
  for (const auto mark : k_breaks) {
    for (auto at = all.find(mark); at != std::string_view::npos; at = all.find(mark, at + 1)) {
      const auto tail = all.substr(at + mark.size());
      const bool instead = says_no_longer(all.substr(0, at)) && mark != ": ";
      if (at < best && is_claim(all.substr(0, at)) && is_reason(tail, instead)) {
        best = at;
        from = at + mark.size();
      }
    }
  }
  for (const std::string_view mark : {" because ", ", because "}) {
    if (const auto at = all.find(mark); at < best && is_claim(all.substr(0, at))) {
      best = at;
      from = at + mark.size();
    }
  }
  if (const auto [open, start] = closing_aside(all);
      open < best && is_claim(all.substr(0, open)) && is_reason(all.substr(start))) {
    best = open;
    from = start;
  }
  if (best == std::string_view::npos) {
    return std::string(text);
  }
  reason = std::string(all.substr(from));
  return std::string(all.substr(0, best));
}

} // namespace engram::claims::detail
