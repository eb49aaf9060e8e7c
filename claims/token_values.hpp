// Values as tokenising reads them, private to claims/: what counts as a
// value and its canonical form, shared by tokens.cpp and the files it reads
// values with.
#pragma once

#include "claims/subject.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace engram::claims::detail {

// Whether `list` holds `word`.
template <std::size_t N>
bool is_listed(const std::array<std::string_view, N>& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Adverbs that may stand between a modal or a copula and the bound it
// states ("can now be up to", "are still limited to"): read past by
// stay_as_keep and limit_as_bound alike.
inline constexpr std::array<std::string_view, 3> k_bound_adverbs = {"now", "still", "always"};

// The length of the ordinal suffix of a number written as one ("5th": 2),
// 0 for any other value.
[[nodiscard]] std::size_t ordinal_suffix(std::string_view value);

// Appends the tokens of one unquoted token: a value (a number's unit split
// off), a number, or its words (those that are numbers as values).
void push_token(std::string_view token, std::vector<Token>& out);

// Whether the word at `w` names the value after it, alone or with the
// capitalised words after it (`proper`): "Pixel 7", "Tesla Model 3"; or is
// a word of a name of several words before its last ("Salt Lake City").
[[nodiscard]] bool names_value(const std::vector<Token>& tokens, std::size_t w,
                               const std::unordered_set<std::string>& proper);

// Drops "named" and "called" between a thing and its name (`proper`, or a
// value): "two cats named Miso and Tofu" says what "two cats, Miso and
// Tofu" does, and "is called Zola" (or "is now called Zola") what "is Zola"
// does. Not after a claim's first word or another small word ("Priya called
// Marco", "she called Marco"), where it is what someone did. "X's name is
// Zola" is read as "X is Zola" too.
void naming_as_apposition(std::vector<Token>& tokens,
                          const std::unordered_set<std::string>& proper);

// Whether `text` is one or more digits and nothing else.
[[nodiscard]] inline bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether a token is a value: a URL, a path, or anything with a digit.
[[nodiscard]] bool is_value(std::string_view token);

// Whether `token` is a currency symbol ($, €, £, ¥) standing on its own.
[[nodiscard]] bool is_currency_symbol(std::string_view token);

// Whether a value token is a plain amount, to which a currency symbol
// written apart from it belongs ("600 €").
[[nodiscard]] bool is_amount(std::string_view value);

// Whether `text` is a plain decimal number ("25", "99.9").
[[nodiscard]] bool is_plain_number(std::string_view text);

// Whether a value is a quantity a bound can hold: a number, a percentage or
// an amount of money ("80%", "$5000").
[[nodiscard]] bool is_quantity(std::string_view value);

// A time of day written as `digits` ("9", "9:30", "09:30") and `suffix` ("",
// "am" or "pm") as 24-hour "HH:MM": "9:30" is "09:30", "9:30" and "pm"
// "21:30", "6" and "pm" "18:00". Empty when it is no time of day (a bare
// hour without am or pm is a count).
[[nodiscard]] std::string clock_time(std::string_view digits, std::string_view suffix);

// A value in the form values compare in: "v1.4" as "1.4", "1,000" as "1000",
// "600€" as "€600"; an ordinal ("5th") stays one.
[[nodiscard]] std::string canonical_value(std::string_view token);

// Numbers joined with the words that scale them: "2.5 million" is 2500000
// (as "2,500,000" is).
void join_numbers(std::vector<Token>& tokens);

// The number a number word, or two joined by a hyphen ("thirty-five"), stands
// for, or "". "one" stays a word here: it is a pronoun as often as a number
// (see one_as_number).
[[nodiscard]] std::string number_of(std::string_view token);

// A number token split from its unit: "16gb" is 16 and gb, "100ms" 100 and
// ms. Ordinals (1st, 3rd) and anything else stay whole.
[[nodiscard]] std::pair<std::string_view, std::string_view> split_unit(std::string_view token);

// Whether `value` is a name and a plain number ("cache-01", "db3"): one of a
// numbered many, as hosts are, where "gpt-4o" and "m5.large" name a kind.
[[nodiscard]] bool is_numbered_name(std::string_view value);

// Whether the token at `w` opens a qualifier that narrows where the value
// right before it (or before its unit) holds: "10 days for international
// orders", "60 seconds in production".
[[nodiscard]] bool narrows_value(const std::vector<Token>& tokens, std::size_t w);

// Whether the value at `w` says which things a claim holds for, right
// after "for", "in", "on" … or its article: "for P1 tickets", "in v2",
// "for 1 hour".
[[nodiscard]] bool names_case(const std::vector<Token>& tokens, std::size_t w);

// Whether `token` ends such a qualifier: a value, or a word after which a
// reason or a time follows ("for product listings since API 2024-07").
[[nodiscard]] bool ends_qualifier(const Token& token);

// Whether the "may" at `w` is the month: a day's number or a year beside
// it ("May 3", "3 May", "May 2026"), where the verb has a verb after it.
[[nodiscard]] bool is_month_may(const std::vector<Token>& out, std::size_t w);

// Whether the word at `w` names a season a fact holds in ("in winter",
// "during the summer", "every autumn"), not a thing named after one ("the
// winter schedule"; "spring" is a framework as often).
[[nodiscard]] bool in_season(const std::vector<Token>& out, std::size_t w);

} // namespace engram::claims::detail
