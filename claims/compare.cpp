// Claim comparison. The order of the tests matters: polarity and values are
// checked before containment, because "returns 100 items" and "returns 250
// items" share every word and must still not be duplicates; and subjects are
// checked before any update, because "web-1 has 16 GB" and "web-2 has 32 GB"
// share a shape and must still both stay.
#include "claims/compare.hpp"

#include "claims/alike.hpp"
#include "claims/choice.hpp"
#include "claims/judgment.hpp"
#include "claims/normalise.hpp"
#include "claims/relocation.hpp"
#include "claims/scope.hpp"
#include "claims/tokens.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace engram::claims {

using detail::Judgment;
using detail::Why;
namespace {

// Below this many tokens, containment is too coarse: only equal token sets are duplicates.
constexpr std::size_t k_min_containment_tokens = 3;

} // namespace

PreparedClaim prepare(std::string_view text) {
  return {normalise(text), tokens_of(text)};
}

namespace {

// Whether reading `text` for comments, as normalising does (each `<!--`
// closed by the first `-->` after it), ends outside one.
bool ends_outside_comment(std::string_view text) {
  for (std::size_t at = 0;;) {
    const auto open = text.find("<!--", at);
    if (open == std::string_view::npos) {
      return true;
    }
    const auto close = text.find("-->", open + 4);
    if (close == std::string_view::npos) {
      return false;
    }
    at = close + 3;
  }
}

// Whether `line` is one HTML comment, with nothing but spaces and tabs around it.
bool is_comment_line(std::string_view line) {
  const auto first = line.find_first_not_of(" \t");
  const auto last = line.find_last_not_of(" \t");
  if (first == std::string_view::npos) {
    return false;
  }
  const auto comment = line.substr(first, last + 1 - first);
  return comment.starts_with("<!--") && comment.find("-->", 4) == comment.size() - 3;
}

} // namespace

std::string_view prepared_alike(std::string_view text) {
  const auto newline = text.rfind('\n');
  if (newline != std::string_view::npos && is_comment_line(text.substr(newline + 1)) &&
      ends_outside_comment(text.substr(0, newline))) {
    return text.substr(0, newline);
  }
  return text.starts_with("- ") ? text.substr(2) : text;
}

Comparison compare_claims(std::string_view incoming, std::string_view existing,
                          double near_threshold) {
  return compare_claims(prepare(incoming), prepare(existing), near_threshold);
}

namespace {

// Fewest content words two claims must share, in their subject and their
// predicate together, to be on one subject ("Port is 8080" is too little).
constexpr std::size_t k_min_context_words = 2;
// Most words a copula's complement may change by and still be a changed
// value ("is master" → "is main"); more is a different statement.
constexpr std::size_t k_max_complement_words = 2;

// Whether every element of `part` occurs in `whole` in the same order.
bool is_subsequence(const std::vector<std::string>& part, const std::vector<std::string>& whole) {
  auto at = whole.begin();
  for (const auto& element : part) {
    at = std::find(at, whole.end(), element);
    if (at == whole.end()) {
      return false;
    }
    ++at;
  }
  return true;
}

// Whether `part` is in `whole` as one run, nothing between its elements.
bool holds_run(const std::vector<std::string>& whole, const std::vector<std::string>& part) {
  return std::search(whole.begin(), whole.end(), part.begin(), part.end()) != whole.end();
}

// The counts that decide an update: what the predicates of two claims on one
// subject share, add and drop, split into words and values.
struct PredicateChange {
  std::size_t shared_words = 0;   // content words both predicates hold
  std::size_t shared = 0;         // tokens both predicates hold
  std::size_t words_added = 0;    // words only the incoming predicate holds
  std::size_t words_dropped = 0;  // words only the existing predicate holds
  std::size_t values_added = 0;   // values only the incoming claim holds
  std::size_t values_dropped = 0; // values only the existing claim holds
};

// The change from `ex`'s predicate to `in`'s, their subjects being equal.
PredicateChange predicate_change(const ClaimTokens& in, const ClaimTokens& ex) {
  PredicateChange change;
  const auto& a = in.predicate;
  const auto& b = ex.predicate;
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() || j != b.end()) {
    if (j == b.end() || (i != a.end() && *i < *j)) {
      ++(holds(in.values, *i) ? change.values_added : change.words_added);
      ++i;
    } else if (i == a.end() || *j < *i) {
      ++(holds(ex.values, *j) ? change.values_dropped : change.words_dropped);
      ++j;
    } else {
      ++change.shared;
      change.shared_words += holds(in.values, *i) ? 0 : 1;
      ++i;
      ++j;
    }
  }
  return change;
}

// How many tokens of the sorted, unique `a` (words and values) the sorted,
// unique `b` lacks, and whether one of them is in `subject`. With
// `same_place`, the claims state one value of where their subject is, and
// words that say only that are not counted (see k_where_words).
std::pair<std::size_t, bool> missing_from(const ClaimTokens& a, const ClaimTokens& b,
                                          bool same_place) {
  std::size_t missing = 0;
  bool in_subject = false;
  const auto walk = [&](const std::vector<std::string>& x, const std::vector<std::string>& y) {
    for (const auto& token : x) {
      if (!std::binary_search(y.begin(), y.end(), token) &&
          !(same_place && detail::says_where(token))) {
        ++missing;
        in_subject = in_subject || holds(a.subject, token);
      }
    }
  };
  walk(a.words, b.words);
  walk(a.values, b.values);
  return {missing, in_subject};
}

// Whether `in` restates `ex`: the same values and polarity, and (almost) every
// token of `in` in `ex`, none of the missing ones naming what `in` is about.
std::optional<Judgment> duplicate_of(const PreparedClaim& incoming, const PreparedClaim& existing,
                                     double near_threshold) {
  const auto& in = incoming.tokens;
  const auto& ex = existing.tokens;
  // The incoming claim may say less than the existing one (drop a value it
  // holds), never something else (a value it lacks).
  if (in.negated != ex.negated || detail::reverses_choice(in, ex) ||
      !std::includes(ex.values.begin(), ex.values.end(), in.values.begin(), in.values.end())) {
    return std::nullopt;
  }
  const bool fewer_values = in.values.size() < ex.values.size();
  const auto n = in.words.size() + in.values.size();
  const bool same_place = detail::at_one_place(in, ex);
  const auto [missing, names_subject] = missing_from(in, ex, same_place);
  if (n < k_min_containment_tokens) {
    const bool same = n != 0 && missing == 0 && ex.words.size() + ex.values.size() == n;
    return same ? Judgment{Relation::duplicate, Why::same_words, 1.0}
                : Judgment{Relation::distinct, Why::too_few, 0.0};
  }
  const auto containment = static_cast<double>(n - missing) / static_cast<double>(n);
  if (fewer_values) {
    // Without the values it drops, only a claim wholly within the existing one restates it.
    return missing == 0 ? std::optional(Judgment{Relation::duplicate, Why::contained, 1.0})
                        : std::nullopt;
  }
  if (containment >= near_threshold && !names_subject) {
    return Judgment{Relation::duplicate, Why::contained, containment};
  }
  return std::nullopt;
}

// Whether `in` keeps the older predicate of `ex` as a value replaced or a
// qualifier added does: its words in their order, and `words_added` words
// before or after them, as a condition is added ("… falls back to English
// when the locale is unsupported"). Words put between them name another
// thing ("inspect the tracker before deploying" and "inspect the tracker
// scheduler before deploying"), and both stand.
bool keeps_older_words(const ClaimTokens& in, const ClaimTokens& ex, std::size_t words_added) {
  return words_added == 0 ? is_subsequence(ex.sequence, in.sequence)
                          : holds_run(in.sequence, ex.sequence);
}

// Whether `ex`'s predicate holds a word `in`'s lacks that is neither a value
// nor a value's unit or name ("for images" in "is 10 MB for images").
bool drops_word_beside_value(const ClaimTokens& in, const ClaimTokens& ex) {
  return std::any_of(ex.predicate.begin(), ex.predicate.end(), [&](const std::string& token) {
    return !holds(in.predicate, token) && !holds(ex.values, token) && !holds(ex.units, token) &&
           !holds(ex.names, token);
  });
}

// Whether one claim dates an event by how long ago it was ("ran 2 hours
// ago") and the other does not ("runs every 6 hours", "takes 40 minutes"):
// their numbers measure different things, and a moment is no new period.
bool moment_against_period(const ClaimTokens& in, const ClaimTokens& ex) {
  return holds(in.words, "ago") != holds(ex.words, "ago");
}

// Whether the two claims' values differ only in their days and months.
bool only_days_changed(const ClaimTokens& in, const ClaimTokens& ex) {
  return in.dates != ex.dates && missing(in.values, in.dates) == missing(ex.values, ex.dates);
}

// Whether the kind of thing a copula says its subject is, or is on, is
// replaced, which makes it another thing it is: "on the annual billing
// cycle" and "on the Pro plan" both hold, as do "a MacBook Pro owner" and "a
// designer"; what it is said to be now ("is now an oat latte") replaces
// what it was.
bool other_kind(const ClaimTokens& in, const ClaimTokens& ex) {
  return !in.head.empty() && !ex.head.empty() && in.head != ex.head &&
         (in.head.starts_with("on ") || !in.now);
}

// The verdict on two claims about one subject whose polarities differ.
Judgment judge_polarity(const ClaimTokens& in, const PredicateChange& change, double score) {
  const auto dropped = change.words_dropped + change.values_dropped;
  const auto added = change.words_added + change.values_added;
  // A word the negation was about, replaced by others, names another
  // thing: "does not want emails on weekends" and "wants emails for failed
  // deploys" both hold. So do words put in place of a qualifier: "never
  // push on Fridays" and "never push without CI passing" both hold (a date
  // added says when: "quit smoking in February").
  const bool object_replaced =
      (change.words_dropped > 0 || change.values_dropped > 0) && change.words_added > 0;
  // A state said to have ended, in fewer of the older's words, ends it
  // whole: "is no longer blocked" after "is blocked on their SSO setup".
  const bool ended = in.negated && in.now && added == 0;
  return (dropped <= 1 || ended) && added <= k_max_complement_words && !object_replaced
             ? Judgment{Relation::update, Why::polarity, score}
             : Judgment{Relation::distinct, Why::different, score};
}

// The verdict on two claims about one subject, from how their predicates
// differ: a value replaced, a polarity flipped, a qualifier added or a
// copula's complement replaced is an update; one word for another is for a
// person to judge; anything else is a different statement.
Judgment judge_change(const ClaimTokens& in, const ClaimTokens& ex, const PredicateChange& change,
                      double score) {
  const auto dropped = change.words_dropped + change.values_dropped;
  const auto added = change.words_added + change.values_added;
  if (detail::dated_to_past(in) != detail::dated_to_past(ex)) {
    return {Relation::distinct, Why::moment, score};
  }
  if (in.negated != ex.negated) {
    return judge_polarity(in, change, score);
  }
  const bool kept_in_order = keeps_older_words(in, ex, change.words_added);
  // A name replaced ("after worker 31" → "after parser 75") is another thing, not a new value.
  const bool names_changed = in.scopes != ex.scopes && !(in.copular && ex.copular);
  const bool value_replaced = change.values_dropped > 0 && change.values_added > 0;
  if (value_replaced && moment_against_period(in, ex)) {
    return {Relation::distinct, Why::moment, score};
  }
  if ((value_replaced && detail::of_another_aspect(in, ex)) || detail::when_against_what(in, ex)) {
    return {Relation::distinct, Why::aspect, score};
  }
  // A place is closed on many days: "closed on Jan 1" adds a day to "closed
  // on Dec 25". The user keeps a habit on many: "works from home on Fridays"
  // adds a day to "… on Mondays".
  if (in.closure && ex.closure && detail::names_a_day(in) && detail::names_a_day(ex)) {
    return {Relation::distinct, Why::other_day, score};
  }
  if (value_replaced && in.habit && ex.habit && only_days_changed(in, ex)) {
    return {Relation::distinct, Why::other_day, score};
  }
  // The user is many things at once: "is left-handed" adds to "is
  // vegetarian" and to "is a backend developer", where "is now vegan" says
  // the user's diet changed.
  if ((in.trait || ex.trait) && (in.trait != ex.trait || !in.now) && change.shared_words == 0 &&
      in.subject == std::vector<std::string>{"user"}) {
    return {Relation::distinct, Why::different, score};
  }
  if (value_replaced && change.words_dropped == 0 && kept_in_order && !names_changed) {
    return {Relation::update, Why::value, score};
  }
  if (dropped == 0 && added > 0 && kept_in_order) {
    return {Relation::update, Why::qualifier, score};
  }
  // A copula's complement replaced, maybe with a qualifier after it ("is
  // Dr. Lindqvist since he switched practices"); scopes were checked above.
  // A value replaced with a word beside it ("is 10 MB for images" → "is 100
  // MB for videos") is a value of another thing; a place's number and name
  // are one place ("at 14 Mill Road" → "at 3 Station Street").
  const bool value_and_word = change.values_dropped > 0 && change.values_added > 0 &&
                              drops_word_beside_value(in, ex) && !(in.at_place && ex.at_place);
  // A model's name and number are one thing replaced ("a Tesla Model 3"),
  // and so is a name of several words ("Salt Lake City").
  const auto naming = static_cast<std::size_t>(
      std::count_if(ex.predicate.begin(), ex.predicate.end(), [&](const std::string& token) {
        return !holds(in.predicate, token) && holds(ex.names, token);
      }));
  if (in.copular && ex.copular && detail::relate_alike(in, ex) && dropped > 0 && added > 0 &&
      dropped - std::min(naming, dropped - 1) <= k_max_complement_words && !value_and_word &&
      !other_kind(in, ex) && !detail::changed_to_another_kind(in, ex) &&
      !detail::another_relation_by_copula(in, ex) && detail::related_the_same_way(in, ex)) {
    return {Relation::update, Why::complement, score};
  }
  if (detail::moved_to(in, ex)) {
    return {Relation::update, Why::moved, score};
  }
  // One word for another, the rest alike: a tool switched ("uses Slack" →
  // "uses Jira") or a second one added. Not certain enough to hide either,
  // but for what the newer says holds now, which replaces the older: a
  // preference, which picks one ("now prefers Slack for updates" after
  // "prefers email …"), or a thing of the older's kind, unless the verb
  // holds many at once ("now tracks issues in Linear", not "now speaks Spanish").
  if (dropped == 1 && added == 1 && change.words_dropped == 1 && change.shared_words >= 1) {
    const bool preference = holds(in.words, "pref") && holds(ex.words, "pref");
    const bool said_now = in.now && (preference || detail::one_for_one(in, ex));
    return {said_now ? Relation::update : Relation::uncertain,
            said_now ? Why::complement : Why::substituted, score};
  }
  return {Relation::distinct, Why::different, score};
}

// The two claims with the names one writes in code spans and the other bare
// read alike (see with_names_of); nullopt when there are none.
std::optional<std::pair<PreparedClaim, PreparedClaim>> names_alike(const PreparedClaim& incoming,
                                                                   const PreparedClaim& existing) {
  auto in = detail::with_names_of(incoming.tokens, existing.tokens);
  auto ex = detail::with_names_of(existing.tokens, incoming.tokens);
  if (!in && !ex) {
    return std::nullopt;
  }
  return std::pair{PreparedClaim{incoming.normal, in ? std::move(*in) : incoming.tokens},
                   PreparedClaim{existing.normal, ex ? std::move(*ex) : existing.tokens}};
}

// The verdict on two claims, with what it rests on. The subject model: two
// claims update each other only when they are about the same thing (equal
// subjects) and their predicates differ as a changed value does — a value
// replaced, a polarity flipped, a qualifier added, or a copula's complement
// replaced; any other difference is a different statement, kept beside.
Judgment judge(const PreparedClaim& incoming, const PreparedClaim& existing,
               double near_threshold) {
  near_threshold = std::clamp(near_threshold, 0.0, 1.0);
  if (incoming.normal == existing.normal) {
    return {Relation::duplicate, Why::equal, 1.0};
  }
  if (auto alike = names_alike(incoming, existing)) {
    return judge(alike->first, alike->second, near_threshold);
  }
  if (const auto read = detail::change_as_state(incoming.tokens, existing.tokens)) {
    const auto j = judge({incoming.normal, read->in}, {existing.normal, read->ex}, near_threshold);
    return detail::judged_change(j, read->tentative);
  }
  if (detail::in_another_scope(incoming.tokens, existing.tokens)) {
    return {Relation::distinct, Why::other_scope, 0.0};
  }
  const auto& in = incoming.tokens;
  const auto& older = existing.tokens;
  if (detail::reverses_choice(in, older) && in.words == older.words && in.values == older.values) {
    return {Relation::update, Why::reversed, 1.0}; // the same words, the choice swapped
  }
  if (detail::chains_choice(in, older)) {
    return {Relation::update, Why::chained, 1.0};
  }
  if (detail::another_choice(in, older)) {
    return {Relation::distinct, Why::other_choice, 0.0};
  }
  if (detail::turns_down_alike(in, older)) {
    return {Relation::distinct, Why::turned_down, 0.0};
  }
  if (detail::passes_over_older(in, older)) {
    return {Relation::update, Why::passed_over, 1.0};
  }
  if (auto duplicate = duplicate_of(incoming, existing, near_threshold)) {
    if (duplicate->relation == Relation::duplicate ||
        (duplicate->why == Why::too_few && !detail::name_replaced(in, older))) {
      return *duplicate;
    }
  }
  // The existing claim read as one about the incoming claim's subject when
  // it says part of that subject in its predicate (see read_about); an
  // instruction negating a statement of the same words ("Do not auto-merge
  // X" against "Auto-merge X") is read as the statement is.
  std::optional<ClaimTokens> reread = detail::read_about(in, existing.tokens);
  if (in.subject != existing.tokens.subject && !reread) {
    if (!in.subject.empty() || in.negated == existing.tokens.negated) {
      const auto held =
          detail::holder_changed(in, existing.tokens, incoming.normal, existing.normal);
      return held ? *held : Judgment{Relation::distinct, Why::other_subject, 0.0};
    }
    reread = existing.tokens;
    reread->subject.clear();
    reread->predicate = joined(reread->words, reread->values);
    reread->sequence.clear(); // its subject's words are the instruction's object
  }
  const auto& ex = reread ? *reread : existing.tokens;
  const auto change = predicate_change(in, ex);
  std::size_t subject_words = 0;
  for (const auto& token : in.subject) {
    subject_words += std::binary_search(in.words.begin(), in.words.end(), token) ? 1 : 0;
  }
  if (reread && !reread->subject.empty()) {
    subject_words = in.subject.size(); // all of it said by the other claim: context enough
  }
  const auto in_all = in.words.size() + in.values.size();
  const double score = in_all == 0 ? 0.0
                                   : static_cast<double>(change.shared + in.subject.size()) /
                                         static_cast<double>(in_all);
  // Without a subject, the claims must share half the incoming claim to be
  // one instruction; the claim index relies on this bound.
  // A copula's subject can be one word ("Grafana is on v9.5").
  const auto context_words = in.copular && ex.copular ? 1 : k_min_context_words;
  const bool enough = subject_words + change.shared_words >= context_words &&
                      (!in.subject.empty() || 2 * change.shared >= in_all);
  if (!enough) {
    return {Relation::distinct, Why::too_little, score};
  }
  return judge_change(in, ex, change, score);
}

// judge() on what the claims state, then on what is said beside it. Two
// log lines stamped with other days, each in the past tense, say what
// happened on each ("2026-12-01: Ryan was sick" and "2026-12-02: Ryan was
// back"): both hold, and so do the same words on two days ("the cluster was
// down"), which say it happened twice. A duplicate that gives a reason the
// older lacks (see ClaimTokens::reason) replaces it, since it says all it
// did and why; one whose reason differs from the older's stands beside it,
// as both may be true.
Judgment judge_whole(const PreparedClaim& incoming, const PreparedClaim& existing,
                     double near_threshold) {
  const auto j = judge(incoming, existing, near_threshold);
  const auto& a = incoming.tokens;
  const auto& b = existing.tokens;
  if ((j.relation == Relation::update || j.relation == Relation::duplicate) && a.past && b.past &&
      !a.stamp.empty() && !b.stamp.empty() && a.stamp != b.stamp) {
    return {Relation::distinct, Why::logged, j.score};
  }
  const auto& in = incoming.tokens.reason;
  const auto& ex = existing.tokens.reason;
  if (j.relation != Relation::duplicate ||
      std::includes(ex.begin(), ex.end(), in.begin(), in.end())) {
    return j;
  }
  if (std::includes(in.begin(), in.end(), ex.begin(), ex.end())) {
    return {Relation::update, Why::reason_added, j.score};
  }
  return {Relation::distinct, Why::other_reason, j.score};
}

} // namespace

Comparison compare_claims(const PreparedClaim& incoming, const PreparedClaim& existing,
                          double near_threshold) {
  const auto j = judge_whole(incoming, existing, near_threshold);
  // Worded from the tokens judged: names read alike, a change said as the state.
  const auto alike = names_alike(incoming, existing);
  const auto& in = alike ? alike->first.tokens : incoming.tokens;
  const auto& ex = alike ? alike->second.tokens : existing.tokens;
  const auto moved = detail::change_as_state(in, ex);
  return {j.relation, j.score,
          detail::reason_for(j, moved ? moved->in : in, moved ? moved->ex : ex)};
}

Relation compare(std::string_view incoming, std::string_view existing, double near_threshold) {
  return compare_claims(incoming, existing, near_threshold).relation;
}

Relation relation(const PreparedClaim& incoming, const PreparedClaim& existing,
                  double near_threshold) {
  return judge_whole(incoming, existing, near_threshold).relation;
}

} // namespace engram::claims
