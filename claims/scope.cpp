// Claims in different scopes, or of different things (see scope.hpp).
#include "claims/scope.hpp"

#include "claims/alike.hpp"
#include "claims/token_idioms.hpp"
#include "claims/token_values.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace engram::claims::detail {
namespace {

// Whether `a` holds a token `b` lacks.
bool lacks(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& s) { return !holds(b, s); });
}

// Whether `in` narrows its value to something `ex` does not name: a word
// `ex` lacks, or a day or month where `ex` names none ("10:00 on Fridays"
// after "at 9:30"; after "9:30 on Mondays" the day is a value replaced).
bool narrows_beyond(const ClaimTokens& in, const ClaimTokens& ex) {
  return std::any_of(in.narrowed.begin(), in.narrowed.end(), [&](const std::string& s) {
    return holds(in.dates, s) ? ex.dates.empty() : !holds(ex.words, s);
  });
}

// Whether `in` puts a word between its value and what the older value
// counted, which narrows what is counted: "40 admin seats" after "1,200
// seats" counts some of them. A letter or two after a number is its
// magnitude or unit ("7B", "10 GB"), not a word that narrows.
bool narrows_count(const ClaimTokens& in, const ClaimTokens& ex) {
  constexpr std::size_t k_shortest_word = 3;
  const bool moved_off = std::any_of(ex.units.begin(), ex.units.end(), [&](const std::string& u) {
    return holds(in.words, u) && !holds(in.units, u);
  });
  return moved_off && std::any_of(in.units.begin(), in.units.end(), [&](const std::string& u) {
           return u.size() >= k_shortest_word && !holds(ex.words, u);
         });
}

// Whether both values of the claims changed, and with them the values
// that say which things each holds for: "a 4-hour response for P1 tickets"
// and "a 24-hour response for P3 tickets" are of other tickets, where "for
// P1 tickets" kept says the response time changed.
bool other_case(const ClaimTokens& in, const ClaimTokens& ex) {
  if (!lacks(in.cases, ex.cases) || !lacks(ex.cases, in.cases)) {
    return false;
  }
  const auto own = missing(in.values, in.cases);
  const auto older = missing(ex.values, ex.cases);
  return lacks(own, older) && lacks(older, own);
}

// Whether the verb opening `claim`'s predicate holds many things at once
// (see holds_many_at_once): its verb, or the first word of a predicate with
// none. What one uses for something named ("uses Jira for planning") is one.
bool holds_many(const ClaimTokens& claim) {
  const auto& verb =
      !claim.verb.empty() || claim.sequence.empty() ? claim.verb : claim.sequence.front();
  return detail::holds_many_at_once(verb) && !(verb == "use" && claim.sequence.size() > 2);
}

// Whether the one token `in` puts in place of one of `ex`'s is of its kind:
// both names (written capitalised, or values), or both common words. "Now
// posts summaries in Spanish" adds a language to "posts summaries in
// threads"; "now tracks issues in Linear" replaces Jira.
bool replaced_in_kind(const ClaimTokens& in, const ClaimTokens& ex) {
  const auto named = [](const ClaimTokens& claim, const std::vector<std::string>& only) {
    return !only.empty() &&
           (holds(claim.values, only.front()) || holds(claim.capitalised, only.front()));
  };
  return named(in, missing(in.predicate, ex.predicate)) ==
         named(ex, missing(ex.predicate, in.predicate));
}

} // namespace

bool in_another_scope(const ClaimTokens& in, const ClaimTokens& ex) {
  const bool value_changed = lacks(in.values, ex.values) && lacks(ex.values, in.values);
  if (value_changed && (narrows_beyond(in, ex) || narrows_count(in, ex) || other_case(in, ex))) {
    return true;
  }
  if (!lacks(in.scopes, ex.scopes)) {
    return false;
  }
  return lacks(ex.scopes, in.scopes) || value_changed || in.negated != ex.negated;
}

bool by_one_preposition(const ClaimTokens& in, const ClaimTokens& ex) {
  return in.preposition.empty() || ex.preposition.empty() || in.preposition == ex.preposition;
}

bool one_for_one(const ClaimTokens& in, const ClaimTokens& ex) {
  return !holds_many(in) && !holds_many(ex) && replaced_in_kind(in, ex) &&
         by_one_preposition(in, ex);
}

bool changed_to_another_kind(const ClaimTokens& in, const ClaimTokens& ex) {
  const auto change_word = [](const std::string& token) { return says_change(token); };
  if (std::any_of(ex.predicate.begin(), ex.predicate.end(), change_word)) {
    return false;
  }
  auto added = missing(in.predicate, ex.predicate);
  const bool shares_word = added.size() < in.predicate.size();
  if (std::erase_if(added, change_word) == 0 || shares_word) {
    return false;
  }
  // The kinds of token a claim names what it is by: a day or month, another
  // value, a name (written capitalised), a common word.
  const auto kinds = [](const ClaimTokens& claim, const std::vector<std::string>& tokens) {
    unsigned mask = 0;
    for (const auto& token : tokens) {
      mask |= holds(claim.dates, token)         ? 1U
              : holds(claim.values, token)      ? 2U
              : holds(claim.capitalised, token) ? 4U
                                                : 8U;
    }
    return mask;
  };
  return (kinds(in, added) & kinds(ex, missing(ex.predicate, in.predicate))) == 0;
}

bool of_another_aspect(const ClaimTokens& in, const ClaimTokens& ex) {
  // 1: a day, 2: a time of day, 4: another value. A date is written in full
  // (2026-03-05) or by its words ("Thursday", "May", "2027" where no unit
  // is written); a bare small number may be a month's day ("March 12") or a
  // count, so it is either.
  const auto kinds = [&](const ClaimTokens& claim, const ClaimTokens& other) {
    unsigned mask = 0;
    for (const auto& value : missing(claim.values, other.values)) {
      const std::string_view v = value;
      const bool year = v.size() == 4 && all_digits(v) &&
                        (v.starts_with("19") || v.starts_with("20")) && claim.units.empty();
      const bool date = v.size() == 10 && all_digits(v.substr(0, 4)) && v[4] == '-' && v[7] == '-';
      const bool day = holds(claim.dates, value) || value == "may" || year || date;
      const bool clock = v.size() == 5 && v[2] == ':' && all_digits(v.substr(0, 2));
      mask |= day ? 1U : clock ? 2U : v.size() <= 2 && all_digits(v) ? 5U : 4U;
    }
    return mask;
  };
  const auto in_kinds = kinds(in, ex);
  const auto ex_kinds = kinds(ex, in);
  return in_kinds != 0 && ex_kinds != 0 && (in_kinds & ex_kinds) == 0;
}

} // namespace engram::claims::detail
