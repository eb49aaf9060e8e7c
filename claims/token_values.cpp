// Values as claims compare them: what counts as one (a number, a path, a
// URL, a date), its canonical form ("v1.4" is "1.4"), and numbers read from
// words or joined with the words that scale or name them. Kept apart from
// tokenising so what makes a changed value can be read on its own.
#include "claims/token_values.hpp"

#include "claims/token_roles.hpp"
#include "claims/tokens.hpp"
#include "claims/words.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <string>

namespace engram::claims {

namespace detail {

bool is_plain_number(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789.") == std::string_view::npos &&
         text.front() != '.' && std::count(text.begin(), text.end(), '.') <= 1;
}

} // namespace detail

using detail::is_plain_number;

namespace {

// The currency symbols an amount is written with: $, €, £ and ¥.
constexpr std::array<std::string_view, 4> k_currency_symbols = {"$", "\xE2\x82\xAC", "\xC2\xA3",
                                                                "\xC2\xA5"};

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

// Number words, as digits: "twelve characters" says what "12 characters" does.
constexpr std::array<std::string_view, 28> k_number_words = {
    "zero",     "one",     "two",     "three",     "four",     "five",     "six",
    "seven",    "eight",   "nine",    "ten",       "eleven",   "twelve",   "thirteen",
    "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
    "thirty",   "forty",   "fifty",   "sixty",     "seventy",  "eighty",   "ninety",
};

// Words that scale the number before them.
constexpr std::array<std::pair<std::string_view, double>, 5> k_magnitudes = {{
    {"thousand", 1e3},
    {"million", 1e6},
    {"billion", 1e9},
    {"trillion", 1e12},
    {"k", 1e3},
}};

// Top-level names of host names: the last label of one written bare.
constexpr std::array<std::string_view, 24> k_top_level = {
    "com",   "org", "net",  "io",   "dev", "app", "ai", "co", "sh", "me", "cloud", "internal",
    "local", "lan", "corp", "home", "edu", "gov", "de", "uk", "fr", "nl", "eu",    "us",
};

// Whether `token` is a host name written bare ("acme.slack.com",
// "db.internal"): labels of letters, digits and hyphens, the last a top-level
// name, so that "node.js" and "package.json" stay words.
bool is_host_name(std::string_view token) {
  const auto dot = token.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || token.front() == '.' ||
      token.find("..") != std::string_view::npos ||
      token.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-.") != std::string_view::npos) {
    return false;
  }
  return detail::is_listed(k_top_level, token.substr(dot + 1));
}

// A time zone's name, its area first: europe/lisbon, america/argentina/buenos_aires.
bool is_time_zone(std::string_view token) {
  constexpr std::array<std::string_view, 11> k_areas = {
      "africa/",    "america/", "antarctica/", "arctic/",  "asia/", "atlantic/",
      "australia/", "europe/",  "indian/",     "pacific/", "etc/"};
  return std::any_of(k_areas.begin(), k_areas.end(),
                     [&](std::string_view area) {
                       return token.size() > area.size() && token.starts_with(area);
                     }) &&
         token.find_first_not_of("abcdefghijklmnopqrstuvwxyz_/-+0123456789") ==
             std::string_view::npos;
}

} // namespace

namespace detail {

// Whether a token is a value: a URL, a path, or anything with a digit.
bool is_currency_symbol(std::string_view token) {
  return is_listed(k_currency_symbols, token);
}

bool is_amount(std::string_view value) {
  return is_plain_number(value);
}

std::size_t ordinal_suffix(std::string_view value) {
  for (const std::string_view suffix : {"st", "nd", "rd", "th"}) {
    if (value.size() > suffix.size() && value.ends_with(suffix) &&
        value.find_first_not_of("0123456789") == value.size() - suffix.size()) {
      return suffix.size();
    }
  }
  return 0;
}

bool is_value(std::string_view token) {
  if (token.find("://") != std::string_view::npos || token.starts_with("www.") ||
      is_host_name(token) || is_time_zone(token)) {
    return true;
  }
  if (token.starts_with("/") || token.starts_with("~/") || token.starts_with("./") ||
      token.starts_with("../") || token.find('\\') != std::string_view::npos) {
    return true;
  }
  if (token.find('/') != std::string_view::npos && token.find('.') != std::string_view::npos) {
    return true;
  }
  // A channel or a tag: #eng-standup names one thing, not the words in it.
  if (token.size() > 1 && token.front() == '#' && token[1] >= 'a' && token[1] <= 'z') {
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

std::string clock_time(std::string_view digits, std::string_view suffix) {
  const auto colon = digits.find(':');
  const auto hours_text = digits.substr(0, colon);
  const auto minutes_text = colon == std::string_view::npos ? "00" : digits.substr(colon + 1);
  if (hours_text.empty() || hours_text.size() > 2 || minutes_text.size() != 2 ||
      !all_digits(hours_text) || !all_digits(minutes_text) ||
      (suffix.empty() && colon == std::string_view::npos)) {
    return {};
  }
  auto hours = std::stoi(std::string(hours_text));
  const auto minutes = std::stoi(std::string(minutes_text));
  constexpr int k_noon = 12;
  constexpr int k_day_hours = 24;
  constexpr int k_hour_minutes = 60;
  if (!suffix.empty()) {
    if (hours < 1 || hours > k_noon) {
      return {};
    }
    hours = (hours % k_noon) + (suffix == "pm" ? k_noon : 0);
  }
  if (hours >= k_day_hours || minutes >= k_hour_minutes) {
    return {};
  }
  return fmt::format("{:02}:{:02}", hours, minutes);
}

// A value in the form values compare in: "v1.4" as "1.4", "1,000" as "1000",
// a time of day as 24-hour "HH:MM".
std::string canonical_value(std::string_view token) {
  const bool twelve_hour = token.ends_with("am") || token.ends_with("pm");
  auto clock = twelve_hour ? token.substr(0, token.size() - 2) : token;
  // "3:45:00" is the "3:45" its seconds, none, add nothing to.
  if (std::count(clock.begin(), clock.end(), ':') == 2 && clock.ends_with(":00")) {
    clock.remove_suffix(3);
  }
  if (clock.find(':') != std::string_view::npos) {
    if (auto time = clock_time(clock, twelve_hour ? token.substr(token.size() - 2) : "");
        !time.empty()) {
      return time;
    }
  }
  std::string value;
  for (std::size_t i = 0; i < token.size(); ++i) {
    const char c = token[i];
    const bool digit_before = i > 0 && token[i - 1] >= '0' && token[i - 1] <= '9';
    const bool digit_after = i + 1 < token.size() && token[i + 1] >= '0' && token[i + 1] <= '9';
    // "v1.4" is 1.4, and "~40" (about 40) is the 40 it approximates.
    if (i == 0 && (c == 'v' || c == '~') && digit_after) {
      continue;
    }
    if (c == ',' && digit_before && digit_after) {
      continue;
    }
    // A range written with an en or em dash is the one written with a
    // hyphen: "10:00–12:00" is "10:00-12:00".
    const auto dash = token.substr(i, 3);
    if ((dash == "\xE2\x80\x93" || dash == "\xE2\x80\x94") && digit_before &&
        i + 3 < token.size() && token[i + 3] >= '0' && token[i + 3] <= '9') {
      value += '-';
      i += 2;
      continue;
    }
    value += c;
  }
  // A symbol written after its amount goes before it: "600€" is "€600".
  for (const auto symbol : k_currency_symbols) {
    if (value.size() > symbol.size() && value.ends_with(symbol) && value.front() >= '0' &&
        value.front() <= '9') {
      value = std::string(symbol) + value.substr(0, value.size() - symbol.size());
      break;
    }
  }
  // An amount with no cents is the whole amount: "$120.00" is "$120".
  for (const auto symbol : k_currency_symbols) {
    if (value.starts_with(symbol) && value.ends_with(".00") && value.size() > symbol.size() + 3) {
      value.resize(value.size() - 3);
    }
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
  // A percentage compares without trailing zeros ("99.90%" is "99.9%"). An
  // ordinal stays one here: only beside a month is it a day's number.
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

// Numbers joined with the words that scale them: "2.5 million" is 2500000
// (as "2,500,000" is).
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
      }
    }
  }
}

// The number a number word, or two joined by a hyphen ("thirty-five"), stands
// for, or "". "one" stays a word: see one_as_number.
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

// Whether a value is a quantity a bound can hold: a number, a percentage or
// an amount of money ("80%", "$5000").
bool is_quantity(std::string_view value) {
  if (value.ends_with('%')) {
    value.remove_suffix(1);
  }
  for (const auto symbol : k_currency_symbols) {
    if (value.starts_with(symbol)) {
      value.remove_prefix(symbol.size());
    }
  }
  return is_plain_number(value);
}

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
    const auto first = out.size();
    for (auto& word : words_of(token)) {
      auto digits = number_of(word);
      out.push_back(digits.empty() ? Token{std::move(word), false, false}
                                   : Token{std::move(digits), true, false});
    }
    // A word of letters joined by hyphens may be written as one ("wifi").
    const bool compound =
        token.find('-') != std::string_view::npos &&
        token.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") == std::string_view::npos;
    for (auto at = first; compound && at + 1 < out.size(); ++at) {
      out[at].hyphen = true;
    }
  }
}

bool names_value(const std::vector<Token>& tokens, std::size_t w,
                 const std::unordered_set<std::string>& proper) {
  // A name of several words is one thing, as one word is: "Salt Lake City",
  // "St. Mary's Hospital" (every word of it but the last is counted so).
  const auto is_proper = [&](const std::string& text) { // names hold no apostrophe
    return proper.contains(text) ||
           (text.ends_with("'s") && proper.contains(text.substr(0, text.size() - 2)));
  };
  if (is_proper(tokens[w].text) && w + 1 < tokens.size() && !tokens[w + 1].value &&
      is_proper(tokens[w + 1].text)) {
    return true;
  }
  // A model is named in a few words: "MacBook Pro 16", "Tesla Model 3".
  constexpr std::size_t k_name_words = 3;
  for (auto at = w; at < tokens.size() && at < w + k_name_words; ++at) {
    if (tokens[at].value) {
      return at > w;
    }
    if (!proper.contains(tokens[at].text)) {
      return false;
    }
  }
  return w + k_name_words < tokens.size() && tokens[w + k_name_words].value;
}

void naming_as_apposition(std::vector<Token>& tokens,
                          const std::unordered_set<std::string>& proper) {
  constexpr std::array<std::string_view, 4> k_copulas = {"is", "are", "was", "were"};
  constexpr std::array<std::string_view, 4> k_adverbs = {"now", "still", "currently", "also"};
  const auto naming = [&](std::size_t w) {
    if (w < 2 || w + 1 >= tokens.size() || tokens[w].value || tokens[w - 1].value ||
        (tokens[w].text != "named" && tokens[w].text != "called")) {
      return false;
    }
    // An adverb of time may stand between: "is now called Casa5G".
    const bool adverb = is_listed(k_adverbs, tokens[w - 1].text) && w >= 3;
    const auto& before = tokens[adverb ? w - 2 : w - 1].text;
    const bool thing = !adverb && !is_stopword(before) && !proper.contains(before);
    // A name, not a count: "is called 3 times" says how often. A word in
    // lower case that ends the claim names it too ("is called master"),
    // where "is called twice" or "by cron" says how.
    constexpr std::array<std::string_view, 6> k_how = {"once",  "twice", "thrice",
                                                       "again", "often", "first"};
    const auto& after = tokens[w + 1];
    const bool last_word = w + 2 == tokens.size() && !is_stopword(after.text) &&
                           !after.text.ends_with("ly") && !is_listed(k_how, after.text);
    return (thing || is_listed(k_copulas, before)) &&
           (after.value ? !is_quantity(after.text) : proper.contains(after.text) || last_word);
  };
  // "The user's partner's name is Priya" says what "… partner is named Priya"
  // does. A possessor of one word keeps "name" ("The user's name is Sam"):
  // "The user is Sam" would be too little left to compare.
  const auto possessed_name = [&](std::size_t w) {
    const auto possessor_words =
        std::count_if(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(w),
                      [](const Token& token) { return !token.value && !is_stopword(token.text); });
    return w > 0 && w + 2 < tokens.size() && tokens[w].text == "name" && possessor_words >= 2 &&
           !tokens[w - 1].value && tokens[w - 1].text.ends_with("'s") &&
           is_listed(k_copulas, tokens[w + 1].text) &&
           (tokens[w + 2].value ? !is_quantity(tokens[w + 2].text)
                                : proper.contains(tokens[w + 2].text));
  };
  // Which words go is read off the tokens as written, before any is erased.
  std::vector<std::size_t> dropped;
  for (std::size_t w = 0; w < tokens.size(); ++w) {
    if (naming(w)) {
      dropped.push_back(w);
    } else if (possessed_name(w)) {
      dropped.push_back(w);
      tokens[w - 1].text.resize(tokens[w - 1].text.size() - 2);
    }
  }
  for (auto at = dropped.rbegin(); at != dropped.rend(); ++at) {
    tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(*at));
  }
}

// A number token split from its unit: "16gb" is 16 and gb, "100ms" 100 and
// ms, "4°c" 4 and °c. Ordinals (1st, 3rd) and anything else stay whole.
std::pair<std::string_view, std::string_view> split_unit(std::string_view token) {
  if (token.empty() || token.front() < '0' || token.front() > '9') {
    return {token, {}};
  }
  auto letters = token.size();
  while (letters > 0 && token[letters - 1] >= 'a' && token[letters - 1] <= 'z') {
    --letters;
  }
  // A degree sign belongs to its unit: "4°c" is 4 and °c, as "4 °C" is.
  constexpr std::string_view degree = "\u00b0";
  letters -= token.substr(0, letters).ends_with(degree) ? degree.size() : 0;
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

bool is_numbered_name(std::string_view value) {
  const auto digits = value.find_first_of("0123456789");
  return digits != std::string_view::npos &&
         value.find_first_not_of("0123456789", digits) == std::string_view::npos &&
         value.substr(0, digits).find_first_not_of("abcdefghijklmnopqrstuvwxyz-") ==
             std::string_view::npos;
}

namespace {

// Words that open a qualifier of where or of what a value holds.
constexpr std::array<std::string_view, 6> k_narrowing = {"for",    "in",     "on",
                                                         "during", "within", "outside"};

} // namespace

bool names_case(const std::vector<Token>& tokens, std::size_t w) {
  const bool article =
      w > 0 && !tokens[w - 1].value && (tokens[w - 1].text == "the" || tokens[w - 1].text == "a");
  const auto opener = article ? w - 1 : w;
  // A day before its month ("on 15 July") is part of the date.
  const bool day =
      w + 1 < tokens.size() && tokens[w + 1].value && role_of(tokens[w + 1].text) == Role::date;
  return !day && opener > 0 && !tokens[opener - 1].value &&
         is_listed(k_narrowing, tokens[opener - 1].text);
}

bool narrows_value(const std::vector<Token>& tokens, std::size_t w) {
  // "for everyone", "in all regions": everywhere, which narrows nothing.
  constexpr std::array<std::string_view, 7> k_everywhere = {
      "everyone", "everybody", "everything", "all", "every", "anyone", "any"};
  const bool everywhere =
      w + 1 < tokens.size() && !tokens[w + 1].value && is_listed(k_everywhere, tokens[w + 1].text);
  return w > 0 && !tokens[w].value && is_listed(k_narrowing, tokens[w].text) && !everywhere &&
         (tokens[w - 1].value || (w > 1 && tokens[w - 2].value));
}

bool ends_qualifier(const Token& token) {
  constexpr std::array<std::string_view, 10> k_ends = {
      "since", "after", "until", "because", "now", "per", "when", "if", "unless", "before"};
  return token.value || is_listed(k_ends, token.text);
}

bool is_month_may(const std::vector<Token>& out, std::size_t w) {
  const auto day_or_year = [&](std::size_t at) {
    if (at >= out.size() || !out[at].value) {
      return false;
    }
    const auto& text = out[at].text;
    return all_digits(text) && (text.size() <= 2 || text.size() == 4);
  };
  return out[w].text == "may" && (day_or_year(w + 1) || (w > 0 && day_or_year(w - 1)));
}

bool in_season(const std::vector<Token>& out, std::size_t w) {
  constexpr std::array<std::string_view, 3> k_seasons = {"summer", "winter", "autumn"};
  constexpr std::array<std::string_view, 4> k_openers = {"in", "during", "every", "each"};
  if (out[w].value || !is_listed(k_seasons, out[w].text) ||
      (w + 1 < out.size() && !out[w + 1].value && role_of(out[w + 1].text) == Role::none)) {
    return false;
  }
  const auto before = w >= 1 && out[w - 1].text == "the" ? w - 1 : w;
  return before >= 1 && is_listed(k_openers, out[before - 1].text);
}

} // namespace detail
} // namespace engram::claims
