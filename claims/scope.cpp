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

// How a word is written, as bits: as a name is (capitalised, or a value),
// as a common word is (after "a" or "the", or plural), or either.
constexpr unsigned k_as_name = 1U;
constexpr unsigned k_as_common = 2U;
constexpr unsigned k_as_either = k_as_name | k_as_common;

// How the first of `only`, tokens of `claim`, is written; `bare` for a word
// written neither way ("webpack", "online"): k_as_either where a bare word
// may be a name, k_as_common where it is taken for a common word.
unsigned kind_of_first(const ClaimTokens& claim, const std::vector<std::string>& only,
                       unsigned bare) {
  if (only.empty()) {
    return k_as_common;
  }
  const auto& token = only.front();
  return holds(claim.values, token) || holds(claim.capitalised, token) ? k_as_name
         : holds(claim.common, token)                                  ? k_as_common
                                                                       : bare;
}

// Whether the one token `in` puts in place of one of `ex`'s is of its kind:
// both names, or both common words, a bare word taken as `bare` (see
// kind_of_first). "Now posts summaries in Spanish" adds a language to
// "posts summaries in threads"; "now tracks issues in Linear" replaces Jira.
bool replaced_in_kind(const ClaimTokens& in, const ClaimTokens& ex, unsigned bare) {
  return (kind_of_first(in, missing(in.predicate, ex.predicate), bare) &
          kind_of_first(ex, missing(ex.predicate, in.predicate), bare)) != 0;
}

// Whether `value` is a time of day as values are written ("09:30").
bool is_clock(std::string_view value) {
  return value.size() == 5 && value[2] == ':' && all_digits(value.substr(0, 2));
}

// Whether `token` of `claim` names a day or a month by its word or its
// date ("Thursday", "May", which is no date word for being a verb too).
bool names_date(const ClaimTokens& claim, const std::string& token) {
  return holds(claim.dates, token) || token == "may";
}

// Whether `token` of `claim` says when: a day or month, a time of day, a
// part of the day or a kind of day ("mornings", "weekends").
bool says_when(const ClaimTokens& claim, const std::string& token) {
  return names_date(claim, token) || (holds(claim.values, token) && is_clock(token)) ||
         names_part_of_day(token);
}

// The kinds of `tokens` of `claim` a claim names what it is by, as bits: 1
// a day or time, 2 another value, 4 a name (written capitalised), 8 a
// common word.
unsigned kinds_of(const ClaimTokens& claim, const std::vector<std::string>& tokens) {
  unsigned mask = 0;
  for (const auto& token : tokens) {
    mask |= says_when(claim, token)           ? 1U
            : holds(claim.values, token)      ? 2U
            : holds(claim.capitalised, token) ? 4U
                                              : 8U;
  }
  return mask;
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

bool related_the_same_way(const ClaimTokens& in, const ClaimTokens& ex) {
  // A copula's preposition says less: "is on the fridge" and "is now in the
  // password manager" both say where a thing is (see name_replaced).
  if (in.preposition.empty() || ex.preposition.empty() || in.verb.empty() || ex.verb.empty()) {
    return true;
  }
  // After a preposition a bare word may name a thing: "bundled with webpack".
  return in.preposition == ex.preposition && replaced_in_kind(in, ex, k_as_either);
}

bool name_replaced(const ClaimTokens& in, const ClaimTokens& ex) {
  const auto named = [](const ClaimTokens& claim) {
    return !claim.predicate.empty() &&
           std::all_of(claim.predicate.begin(), claim.predicate.end(), [&](const std::string& t) {
             return holds(claim.capitalised, t) || holds(claim.values, t);
           });
  };
  // A move read as where its subject is keeps no preposition ("moved to Leeds").
  const bool moved_place =
      (in.preposition.empty() || ex.preposition.empty()) && in.at_place && ex.at_place;
  return in.copular && ex.copular && in.negated == ex.negated && !in.subject.empty() &&
         in.subject == ex.subject && (in.preposition == ex.preposition || moved_place) &&
         named(in) && named(ex) && !lacks(in.predicate, missing(in.predicate, ex.predicate));
}

bool when_against_what(const ClaimTokens& in, const ClaimTokens& ex) {
  const auto added = missing(in.predicate, ex.predicate);
  const auto dropped = missing(ex.predicate, in.predicate);
  // A part of the day may name a kind of a thing both claims name ("the
  // night shift" after "the day shift"): beside a word both share but the
  // verb, it says no when.
  const bool share_thing =
      std::any_of(in.predicate.begin(), in.predicate.end(),
                  [&](const auto& t) { return t != in.verb && holds(ex.predicate, t); });
  // Whether every one of `when` says when and none of `what` does.
  const auto only_when = [&](const ClaimTokens& a, const std::vector<std::string>& when,
                             const ClaimTokens& b, const std::vector<std::string>& what) {
    const auto said_when = [&](const std::string& token) {
      return says_when(a, token) && !(share_thing && names_part_of_day(token));
    };
    return !when.empty() && !what.empty() && std::all_of(when.begin(), when.end(), said_when) &&
           std::none_of(what.begin(), what.end(), [&](const auto& t) { return says_when(b, t); });
  };
  return only_when(in, added, ex, dropped) || only_when(ex, dropped, in, added);
}

bool another_relation_by_copula(const ClaimTokens& in, const ClaimTokens& ex) {
  return in.verb.empty() && ex.verb.empty() && in.preposition != ex.preposition &&
         (kinds_of(in, missing(in.predicate, ex.predicate)) &
          kinds_of(ex, missing(ex.predicate, in.predicate))) == 0;
}

bool names_a_day(const ClaimTokens& claim) {
  return !claim.dates.empty() ||
         std::any_of(claim.predicate.begin(), claim.predicate.end(),
                     [](const auto& token) { return names_part_of_day(token); });
}

bool one_for_one(const ClaimTokens& in, const ClaimTokens& ex) {
  return !holds_many(in) && !holds_many(ex) && replaced_in_kind(in, ex, k_as_common) &&
         related_the_same_way(in, ex);
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
  return (kinds_of(in, added) & kinds_of(ex, missing(ex.predicate, in.predicate))) == 0;
}

bool of_another_aspect(const ClaimTokens& in, const ClaimTokens& ex) {
  // 1: a day, 2: a time of day, 4: another value. A date is written in full
  // (2026-03-05) or by its words ("Thursday", "May", "2027" where no unit
  // is written); a bare small number is a month's day beside a month's name
  // where no unit is written ("March 12", not "1 Gbps since April"), else it
  // may be a day or a count, so it is either.
  const auto kinds = [&](const ClaimTokens& claim, const ClaimTokens& other) {
    const bool month_named =
        std::any_of(claim.values.begin(), claim.values.end(), [&](const std::string& value) {
          return names_date(claim, value) && !all_digits(value);
        });
    unsigned mask = 0;
    for (const auto& value : missing(claim.values, other.values)) {
      const std::string_view v = value;
      const bool year = v.size() == 4 && all_digits(v) &&
                        (v.starts_with("19") || v.starts_with("20")) && claim.units.empty();
      const bool date = v.size() == 10 && all_digits(v.substr(0, 4)) && v[4] == '-' && v[7] == '-';
      const bool day = names_date(claim, value) || year || date;
      const bool clock = is_clock(v);
      const bool small = v.size() <= 2 && all_digits(v);
      mask |= day || (small && month_named && claim.units.empty()) ? 1U
              : clock                                              ? 2U
              : small                                              ? 5U
                                                                   : 4U;
    }
    return mask;
  };
  const auto in_kinds = kinds(in, ex);
  const auto ex_kinds = kinds(ex, in);
  return in_kinds != 0 && ex_kinds != 0 && (in_kinds & ex_kinds) == 0;
}

bool dated_to_past(const ClaimTokens& claim) {
  return claim.dated && claim.copular && claim.moved.empty() &&
         std::none_of(claim.words.begin(), claim.words.end(),
                      [](const std::string& word) { return says_change(word); });
}

} // namespace engram::claims::detail
