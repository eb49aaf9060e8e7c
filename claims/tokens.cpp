// Tokenising for comparison. Values are kept whole and unstemmed ("v1.4.2" is
// one value, "1.4.2" the same one) because a changed value is what makes an
// update; words are stemmed with the same Snowball stemmer tags use, so
// "returns" and "returning" agree.
#include "claims/tokens.hpp"

#include "claims/normalise.hpp"
#include "claims/subject.hpp"
#include "claims/words.hpp"
#include "store/tags.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <unordered_map>
#include <unordered_set>

namespace engram::claims {
namespace {

// Words too common to say what a claim is about. Prepositions and adverbs
// that change meaning (before/after, more/less, only) are deliberately absent.
constexpr std::array<std::string_view, 81> k_stopwords = {
    "a",     "an",     "the",    "is",    "are",       "was",   "were",   "be",     "been",
    "being", "am",     "have",   "has",   "had",       "do",    "does",   "did",    "will",
    "would", "could",  "should", "may",   "might",     "must",  "can",    "shall",  "to",
    "of",    "in",     "on",     "at",    "by",        "for",   "from",   "with",   "as",
    "into",  "via",    "per",    "and",   "or",        "but",   "so",     "if",     "then",
    "than",  "this",   "that",   "these", "those",     "it",    "its",    "there",  "here",
    "we",    "you",    "i",      "they",  "he",        "she",   "our",    "your",   "their",
    "my",    "also",   "just",   "now",   "currently", "still", "always", "really", "actually",
    "very",  "please", "all",    "every", "each",      "any",   "both",   "ever",   "some",
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
  // An address or a handle: billing@acme.io, @dana.
  const auto at = token.find('@');
  if (at != std::string_view::npos && (at == 0 || token.find('.', at) != std::string_view::npos)) {
    return token.size() > 1;
  }
  // A date format: DD/MM/YYYY, YYYY-MM-DD, HH:MM.
  if (token.size() >= 5 && token.find_first_of("/-.:") != std::string_view::npos &&
      token.find_first_not_of("dmyhs/-.:") == std::string_view::npos) {
    return true;
  }
  return std::any_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether `text` is a plain decimal number.
bool is_plain_number(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789.") == std::string_view::npos &&
         text.front() != '.' && std::count(text.begin(), text.end(), '.') <= 1;
}

// `n` as digits, without a fractional part when it has none.
std::string number_text(double n) {
  auto text = fmt::format("{:.6f}", n);
  while (text.ends_with('0')) {
    text.pop_back();
  }
  if (text.ends_with('.')) {
    text.pop_back();
  }
  return text;
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
  // Thousands written with k, after a currency or not: "€500k" is "€500,000".
  if (value.size() > 1 && value.back() == 'k') {
    const auto digits = value.find_first_of("0123456789");
    const auto prefix = value.substr(0, digits == std::string::npos ? 0 : digits);
    const auto number = value.substr(prefix.size(), value.size() - prefix.size() - 1);
    const bool currency =
        prefix.empty() || prefix == "$" || prefix == "\xE2\x82\xAC" || prefix == "\xC2\xA3";
    if (currency && is_plain_number(number)) {
      value = prefix + number_text(std::stod(number) * 1000);
    }
  }
  // An ordinal is its number ("March 5th" is "5 March"); a percentage
  // compares without trailing zeros ("99.90%" is "99.9%").
  for (const std::string_view suffix : {"st", "nd", "rd", "th"}) {
    if (value.size() > suffix.size() && value.ends_with(suffix) &&
        value.find_first_not_of("0123456789") == value.size() - suffix.size()) {
      value.resize(value.size() - suffix.size());
    }
  }
  if (value.ends_with('%') && value.find('.') != std::string::npos) {
    value.pop_back();
    while (value.ends_with('0')) {
      value.pop_back();
    }
    if (value.ends_with('.')) {
      value.pop_back();
    }
    value += '%';
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

// Words that say how often: the values of a schedule.
constexpr std::array<std::string_view, 10> k_frequencies = {
    "hourly",  "daily",     "nightly", "weekly",   "fortnightly",
    "monthly", "quarterly", "yearly",  "annually", "biweekly",
};

// Words after which "on" is a switch's position, not a preposition.
constexpr std::array<std::string_view, 12> k_switch_words = {
    "mode", "flag", "switch", "turned", "turn", "left", "leave", "kept", "keep", "is", "are", "set",
};

// Number words, as digits: "twelve characters" says what "12 characters" does.
constexpr std::array<std::string_view, 28> k_number_words = {
    "zero",     "one",     "two",     "three",     "four",     "five",     "six",
    "seven",    "eight",   "nine",    "ten",       "eleven",   "twelve",   "thirteen",
    "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
    "thirty",   "forty",   "fifty",   "sixty",     "seventy",  "eighty",   "ninety",
};

// Irregular past forms, as their verbs: "took" says what "takes" does.
const std::unordered_map<std::string_view, std::string_view>& irregular_verbs() {
  static const std::unordered_map<std::string_view, std::string_view> k_verbs = {
      {"took", "take"},        {"taken", "take"},    {"ran", "run"},
      {"went", "go"},          {"gone", "go"},       {"made", "make"},
      {"built", "build"},      {"sent", "send"},     {"kept", "keep"},
      {"held", "hold"},        {"got", "get"},       {"gotten", "get"},
      {"gave", "give"},        {"given", "give"},    {"wrote", "write"},
      {"written", "write"},    {"broke", "break"},   {"broken", "break"},
      {"began", "begin"},      {"begun", "begin"},   {"found", "find"},
      {"left", "leave"},       {"paid", "pay"},      {"said", "say"},
      {"told", "tell"},        {"brought", "bring"}, {"bought", "buy"},
      {"chose", "choose"},     {"chosen", "choose"}, {"drove", "drive"},
      {"driven", "drive"},     {"fell", "fall"},     {"felt", "feel"},
      {"led", "lead"},         {"lost", "lose"},     {"meant", "mean"},
      {"met", "meet"},         {"saw", "see"},       {"seen", "see"},
      {"sold", "sell"},        {"shown", "show"},    {"spent", "spend"},
      {"stood", "stand"},      {"won", "win"},       {"ate", "eat"},
      {"grew", "grow"},        {"knew", "know"},     {"known", "know"},
      {"shot", "shoot"},       {"hid", "hide"},      {"hidden", "hide"},
      {"froze", "freeze"},     {"frozen", "freeze"}, {"rode", "ride"},
      {"spoke", "speak"},      {"spoken", "speak"},  {"stole", "steal"},
      {"threw", "throw"},      {"thrown", "throw"},  {"woke", "wake"},
      {"caught", "catch"},     {"taught", "teach"},  {"thought", "think"},
      {"fought", "fight"},     {"sought", "seek"},   {"understood", "understand"},
      {"slept", "sleep"},      {"swept", "sweep"},   {"lent", "lend"},
      {"bent", "bend"},        {"dealt", "deal"},    {"hung", "hang"},
      {"struck", "strike"},    {"stuck", "stick"},   {"forgot", "forget"},
      {"forgotten", "forget"}, {"became", "become"}, {"rang", "ring"},
      {"sang", "sing"},
  };
  return k_verbs;
}

// Whether `list` holds `word`.
template <std::size_t N>
bool is_listed(const std::array<std::string_view, N>& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Nouns that, before a number, name one of many: "shard 3" is a thing, as
// web-1 is, where "page 100" measures.
constexpr std::array<std::string_view, 36> k_designators = {
    "shard", "node",     "server",    "host",    "rule",     "step",     "phase",
    "room",  "floor",    "partition", "replica", "worker",   "slot",     "rack",
    "item",  "issue",    "ticket",    "pr",      "cluster",  "building", "gate",
    "lane",  "terminal", "desk",      "chapter", "section",  "part",     "task",
    "bug",   "case",     "bay",       "pod",     "instance", "number",
};

// Words that scale the number before them.
constexpr std::array<std::pair<std::string_view, double>, 5> k_magnitudes = {{
    {"thousand", 1e3},
    {"million", 1e6},
    {"billion", 1e9},
    {"trillion", 1e12},
    {"k", 1e3},
}};

// Numbers joined with the words around them that say what they are:
// "2.5 million" is 2500000 (as "2,500,000" is), "shard 3" the thing shard-3.
void join_numbers(std::vector<Token>& tokens) {
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    auto& a = tokens[i];
    auto& b = tokens[i + 1];
    if (a.value && is_plain_number(a.text) && !b.value) {
      const auto scale = std::find_if(k_magnitudes.begin(), k_magnitudes.end(),
                                      [&](const auto& m) { return m.first == b.text; });
      if (scale != k_magnitudes.end()) {
        a.text = number_text(std::stod(a.text) * scale->second);
        a.boundary = b.boundary;
        tokens.erase(tokens.begin() + static_cast<long>(i) + 1);
        continue;
      }
    }
    if (!a.value && b.value && is_plain_number(b.text) && is_listed(k_designators, a.text)) {
      a = {a.text + "-" + b.text, true, b.boundary, a.opener};
      tokens.erase(tokens.begin() + static_cast<long>(i) + 1);
    }
  }
}

// The number a number word, or two joined by a hyphen ("thirty-five"), stands
// for, or "". "one" stays a word: it is a pronoun as often as a number.
std::string number_of(std::string_view token) {
  const auto value = [](std::string_view word) -> int {
    const auto it = std::find(k_number_words.begin(), k_number_words.end(), word);
    if (it == k_number_words.end()) {
      return -1;
    }
    const auto i = static_cast<int>(it - k_number_words.begin());
    return i <= 20 ? i : 20 + (i - 20) * 10;
  };
  const auto hyphen = token.find('-');
  if (hyphen != std::string_view::npos) {
    const auto tens = value(token.substr(0, hyphen));
    const auto ones = value(token.substr(hyphen + 1));
    return tens >= 20 && tens % 10 == 0 && ones > 0 && ones < 10 ? std::to_string(tens + ones)
                                                                 : std::string();
  }
  const auto n = value(token);
  return n < 0 || token == "one" ? std::string() : std::to_string(n);
}

// A number token split from its unit: "16gb" is 16 and gb, "100ms" 100 and
// ms. Ordinals (1st, 3rd) and anything else stay whole.
std::pair<std::string_view, std::string_view> split_unit(std::string_view token) {
  if (token.empty() || token.front() < '0' || token.front() > '9') {
    return {token, {}};
  }
  auto letters = token.size();
  while (letters > 0 && token[letters - 1] >= 'a' && token[letters - 1] <= 'z') {
    --letters;
  }
  const auto unit = token.substr(letters);
  const auto number = token.substr(0, letters);
  const bool numeric =
      !number.empty() && number.find_first_not_of("0123456789.,") == std::string_view::npos;
  const bool ordinal = unit == "st" || unit == "nd" || unit == "rd" || unit == "th";
  if (!numeric || unit.empty() || unit.size() > 4 || ordinal) {
    return {token, {}};
  }
  return {number, unit};
}

// The value a word stands for, or "": a date word, true or false, a switch's
// position (off; "on" is one only where it follows a switch), a schedule.
std::string value_word(const std::string& word, Role role) {
  const auto singular = word.ends_with("days") ? word.substr(0, word.size() - 1) : word;
  const auto singular_role = singular.size() == word.size() ? role : role_of(singular);
  if (singular_role == Role::date || word == "true" || word == "false") {
    return singular; // "on Fridays" and "on Friday" name the same day
  }
  // A switch has two values, whatever the verb's form: "enable retries" and
  // "retries are enabled" say the same, "disable retries" the opposite.
  if (role == Role::enabling) {
    return "enabled";
  }
  if (role == Role::disabling) {
    return "disabled";
  }
  if (word == "off" || is_listed(k_frequencies, word)) {
    return word;
  }
  return {};
}

// `text` with each Markdown link `[words](target)` as its words: the link is
// markup, and a claim with and without it says the same.
std::string without_link_targets(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ']' && i + 1 < text.size() && text[i + 1] == '(') {
      const auto close = text.find(')', i + 2);
      if (close != std::string_view::npos && out.find('[') != std::string::npos) {
        out.erase(out.rfind('['), 1);
        i = close;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// The words written capitalised past a claim's first word, lower-cased:
// names, which a word's shape alone would take for verbs ("Memcached").
std::unordered_set<std::string> proper_words(std::string_view text) {
  std::unordered_set<std::string> out;
  bool first = true;
  std::string word;
  bool capital = false;
  const auto flush = [&] {
    if (!word.empty() && capital && !first) {
      out.insert(word);
    }
    first = first && word.empty();
    word.clear();
  };
  for (const char c : text) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!letter) {
      flush();
      continue;
    }
    capital = word.empty() ? (c >= 'A' && c <= 'Z') : capital;
    word += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  flush();
  return out;
}

// A word's stem as claims compare it: the Snowball stem tags use, without a
// plural "s" the stemmer keeps ("shas"), so "SHA" and "SHAs" agree.
std::string comparable_stem(const std::string& word) {
  const auto irregular = irregular_verbs().find(word);
  auto stem = store::canonical_tag(
      irregular == irregular_verbs().end() ? word : std::string(irregular->second));
  if (stem.size() > 3 && stem.ends_with('s') && !stem.ends_with("ss") && !stem.ends_with("us") &&
      !stem.ends_with("is")) {
    stem.pop_back();
  }
  return stem;
}

} // namespace

bool is_stopword(std::string_view word) {
  return role_of(word) == Role::stopword;
}

bool is_negation(std::string_view word) {
  return role_of(word) == Role::negation;
}

namespace {

// Takes the quoted value or word whose quote (or backtick) opens at `i` into
// `out`; where the text after its closing quote starts, or npos (and nothing
// taken) when it is not closed.
std::size_t take_quoted(const std::string& folded, std::size_t i, std::vector<Token>& out) {
  const char c = folded[i];
  const auto close = quote_end(folded, i, c);
  if (close == std::string::npos) {
    return std::string::npos;
  }
  // Quotes and backticks are markup: `/etc/x.conf` is the path /etc/x.conf,
  // and a word in quotes the word ("dark" is dark); code stays a value.
  auto inner = folded.substr(i + 1, close - i - 1);
  const bool word =
      c != '`' && inner.find_first_not_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos;
  out.push_back({word ? std::move(inner) : canonical_value(inner), !word, false});
  return close + 1;
}

// Appends the tokens of one unquoted token: a value (a number's unit split
// off), a number, or its words (those that are numbers as values).
void push_token(std::string_view token, std::vector<Token>& out) {
  if (is_value(token)) {
    const auto split = split_unit(token);
    out.push_back({canonical_value(split.first), true, false});
    if (!split.second.empty()) {
      out.push_back({std::string(split.second), false, false});
    }
  } else if (auto number = number_of(token); !number.empty()) {
    out.push_back({std::move(number), true, false});
  } else {
    for (auto& word : words_of(token)) {
      auto digits = number_of(word);
      out.push_back(digits.empty() ? Token{std::move(word), false, false}
                                   : Token{std::move(digits), true, false});
    }
  }
}

// Turns each word token that stands for a value (see value_word; "on" does
// after a switch word or at the end) into a value token.
void take_value_words(std::vector<Token>& out) {
  for (std::size_t w = 0; w < out.size(); ++w) {
    if (!out[w].value) {
      auto value = value_word(out[w].text, role_of(out[w].text));
      const bool switched_on =
          out[w].text == "on" &&
          (w + 1 == out.size() ||
           (w > 0 && !out[w - 1].value && is_listed(k_switch_words, out[w - 1].text)));
      if (switched_on) {
        value = "on";
      }
      if (!value.empty()) {
        out[w] = {std::move(value), true, out[w].boundary, out[w].opener};
      }
    }
  }
}

// The tokens of folded text in order: quoted values whole, a number with its
// unit split ("16gb" is the value 16 and the word gb, as "16 GB" is), every
// other token split into words.
std::vector<Token> ordered_tokens(const std::string& folded) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < folded.size()) {
    const char c = folded[i];
    if (c == ' ') {
      ++i;
      continue;
    }
    if (c == '`' || c == '"' || c == '\'') {
      if (const auto after = take_quoted(folded, i, out); after != std::string::npos) {
        i = after;
        continue;
      }
    }
    auto end = i + 1;
    while (end < folded.size() && folded[end] != ' ' && folded[end] != '`' && folded[end] != '"') {
      ++end;
    }
    const auto raw = std::string_view(folded).substr(i, end - i);
    const auto token = trim_token(raw);
    i = end;
    // "=", arrows and dashes between words separate a label from its value.
    if (raw == "=" || raw == "->" || raw == "\xE2\x86\x92" || raw == "\xE2\x80\x94" ||
        raw == "\xE2\x80\x93" || raw == "-") {
      if (!out.empty()) {
        out.back().boundary = true;
      }
      continue;
    }
    if (token.empty()) {
      continue;
    }
    const bool colon = raw.ends_with(':') && !token.ends_with(':');
    const auto before = out.size();
    push_token(token, out);
    if (out.size() > before) {
      out.back().boundary = out.back().boundary || colon;
    }
  }
  join_numbers(out);
  if (!out.empty() && !out[0].value && opens_instruction(out[0].text)) {
    out[0].opener = true;
  }
  // Words that stand for values are values from here on: where a predicate
  // opens depends on them, as comparing does.
  take_value_words(out);
  return out;
}

} // namespace

ClaimTokens tokens_of(std::string_view text) {
  const auto plain = without_link_targets(text);
  auto ordered = ordered_tokens(fold(plain, KeepBackticks::yes));
  const auto predicate = predicate_of(ordered, proper_words(plain));
  ClaimTokens tokens;
  tokens.copular = predicate.copular;
  for (std::size_t w = 0; w < ordered.size(); ++w) {
    const bool in_subject = w < predicate.at;
    if (ordered[w].value) {
      // A name (web-1, shard-3) is a scope; a version (c++17) is not, nor
      // the value a copula states ("The region is us-east-1").
      const auto& value = ordered[w].text;
      if (is_identifier(value) && !is_version_name(value) && (in_subject || !tokens.copular)) {
        tokens.scopes.push_back(value);
      }
      (in_subject ? tokens.subject : tokens.predicate).push_back(ordered[w].text);
      tokens.values.push_back(std::move(ordered[w].text));
      continue;
    }
    auto word = std::move(ordered[w].text);
    if (word.ends_with("'s")) {
      word.resize(word.size() - 2);
    }
    const auto role = role_of(word);
    if (role == Role::negation || word.ends_with("n't")) {
      tokens.negated = true;
      if (word == "no" && w + 1 < ordered.size() && ordered[w + 1].text == "longer") {
        ++w;
      }
      continue;
    }
    if (is_scope_word(word)) {
      tokens.scopes.push_back(word);
    }
    if (role == Role::stopword) {
      continue;
    }
    std::erase(word, '\'');
    auto stem = comparable_stem(word);
    if (!stem.empty()) {
      (in_subject ? tokens.subject : tokens.predicate).push_back(stem);
      if (!in_subject) {
        tokens.sequence.push_back(stem);
      }
      tokens.words.push_back(std::move(stem));
    }
  }
  sort_unique(tokens.words);
  sort_unique(tokens.values);
  sort_unique(tokens.subject);
  sort_unique(tokens.predicate);
  sort_unique(tokens.scopes);
  return tokens;
}

} // namespace engram::claims
