// Words and phrases tokenising reads as one thing before a claim is
// compared, private to claims/ (used by tokens.cpp): irregular verbs, units,
// links, names, ordinals, negations inside a word or phrase, a choice's contrast,
// "rather than" as "instead of", and the days something is closed.
#pragma once

#include "claims/subject.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace engram::claims::detail {

// Irregular past forms, as their verbs: "took" says what "takes" does.
[[nodiscard]] const std::unordered_map<std::string_view, std::string_view>& irregular_verbs();

// A word's stem as claims compare it: the Snowball stem tags use, without a
// plural "s" the stemmer keeps ("shas"), so "SHA" and "SHAs" agree.
[[nodiscard]] std::string comparable_stem(const std::string& word);

// The stems of `words`, as comparison reads them: a list written as words,
// matched against stemmed tokens.
template <std::size_t N>
[[nodiscard]] std::unordered_set<std::string>
stems_of(const std::array<std::string_view, N>& words) {
  std::unordered_set<std::string> out;
  for (const auto word : words) {
    out.insert(comparable_stem(std::string(word)));
  }
  return out;
}

// A unit's abbreviation after a value as its word: "40 min" says "40 minutes".
[[nodiscard]] std::string unit_word(std::string word);

// `word` without an ending written after an apostrophe: "Dana's" is of Dana,
// "cc'ing" and "DM'd" are the cc and DM done, "she'd" is she. A negation
// ("don't") keeps its ending.
void drop_ending(std::string& word);

// `text` with each Markdown link `[words](target)` as its words; each
// target dropped is added to `targets`, when given.
[[nodiscard]] std::string without_link_targets(std::string_view text,
                                               std::vector<std::string>* targets = nullptr);

// The ordinal at `w` as a value ("2nd"), or "" where it is no ordinal of a series.
[[nodiscard]] std::string ordinal_value(const std::vector<Token>& out, std::size_t w);

// Reads "used to" (a habit ended), "dislikes" and "disallows" as the "not" they hold.
void mark_inner_negations(std::vector<Token>& out);

// Where the contrast of a choice opens in `ordered` from `from` on ("instead
// of", "rather than", "over" after a word of preferring) and how many tokens
// it takes; {npos, 0} when there is none.
[[nodiscard]] std::pair<std::size_t, std::size_t> contrast_of(const std::vector<Token>& ordered,
                                                              std::size_t from);

// Where the instruction starts in a request written down ("Lena asked me to
// send the report on Mondays", "The user wants us to …"): past its "to";
// 0 when `out` opens with none.
[[nodiscard]] std::size_t request_opener(const std::vector<Token>& out);

// Writes "rather than" as "instead of", which says the same: one pair of
// words for both; and "would rather X than Y" as "prefers X over Y", the
// choice it states.
void as_instead_of(std::vector<Token>& out);

// Writes a change from one thing to another as the choice it now makes:
// "switched from Jira to Linear" as "switched Linear instead of Jira",
// "replaced the Pixel 6 with a Pixel 8" as "replaced a Pixel 8 instead of
// the Pixel 6", "left Acme and now works at Globex" as "works at Globex
// instead of Acme". Whether it wrote one.
bool change_as_choice(std::vector<Token>& out);

// Writes "X should stay Y" (or must, remain) as the instruction "Keep X Y"
// it gives: "Replies should stay under 200 words" is "Keep replies under
// 200 words", and so is "Replies should be (can be) under 200 words", a bound.
void stay_as_keep(std::vector<Token>& out);

// Whether `value` says where a thing is found: a URL, a path, an IPv4
// address or a host name ("nas.local"); a version ("22.04") does not.
[[nodiscard]] bool names_a_place(std::string_view value);

// Drops the head of a compound that says no more than the word before it:
// "email address" is the email, "phone number" the phone, a thing's address
// the thing when a place is given, and "version" before a version its "v".
void compound_heads(std::vector<Token>& out);

// Whether `ordered` says on what day something is closed ("closed on Dec
// 25"), not a closure's one end ("closed until January 5").
[[nodiscard]] bool says_closure(const std::vector<Token>& ordered);

// `text` with a time clause or a qualifier written first moved last:
// "Since the April release, the limit is 200" says "the limit is 200 since
// the April release", and "For refactors, prefers one PR" "prefers one PR
// for refactors", where a qualifier is read.
[[nodiscard]] std::string time_clause_last(std::string_view text);

} // namespace engram::claims::detail
