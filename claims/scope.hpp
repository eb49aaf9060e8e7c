// Claims that hold in different scopes or of different things, judged
// before anything else is compared. Private to claims/ (compare.cpp).
#pragma once

#include "claims/tokens.hpp"

namespace engram::claims::detail {

// Whether the claims hold in different scopes: each names a scope or name the
// other lacks ("enabled in staging" and "enabled in production", "drain ci-01"
// and "drain ci-02"); the incoming one changes a value or the polarity within
// a scope the older did not name ("is 60 seconds in production" after "is 30
// seconds") or to things the older does not name ("10 days for international
// orders" after "5 days"), where the older may still hold elsewhere; or it
// says which things its value is of, and those are others (see other_case).
[[nodiscard]] bool in_another_scope(const ClaimTokens& in, const ClaimTokens& ex);

// Whether the verbs of the two claims relate their subjects by one
// preposition to things of one kind, or either has none: "works at Globex"
// and "works from home" relate the user to other kinds of thing, as
// "deploys with ArgoCD" and "deploys on Fridays" do, and so do "lives in
// Porto" (a name) and "lives in a flat" (a common word).
[[nodiscard]] bool related_the_same_way(const ClaimTokens& in, const ClaimTokens& ex);

// Whether each claim states its one subject by a name alone, after the same
// preposition or none, and the names differ: "The owner is now Priya" after
// "The owner is Omar", "The office is in Munich" after "… in Berlin". Short
// as they are, the name is the value; "is on Berlin Street" is not "in Munich".
// A move to a place is where its subject is: "moved to Leeds" after "is in York".
[[nodiscard]] bool name_replaced(const ClaimTokens& in, const ClaimTokens& ex);

// Whether one claim says only when ("on Monday at 8:30", "in the
// mornings") where the other says what, where or by what ("in the break
// room", "in Gmail"): each says another thing of its subject.
[[nodiscard]] bool when_against_what(const ClaimTokens& in, const ClaimTokens& ex);

// Whether each claim's copula relates its subject to a thing by another
// preposition, or one by none, and what each names is of another kind (a
// day or time, a value, a name, a common word): "is on leave until March 3"
// is not what "is Tara" was.
[[nodiscard]] bool another_relation_by_copula(const ClaimTokens& in, const ClaimTokens& ex);

// Whether the claim names a day, a month, or a kind or part of day ("on
// public holidays").
[[nodiscard]] bool names_a_day(const ClaimTokens& claim);

// Whether the one word `in` puts in place of one of `ex`'s takes its place
// rather than naming another thing: both are names (written capitalised, or
// values) or both common words ("now tracks issues in Linear" after "in
// Jira"; not "now posts summaries in Spanish" after "in threads"), and the
// verb holds one thing at a time (not "now speaks Spanish" after "speaks
// French": see holds_many_at_once), by one preposition.
[[nodiscard]] bool one_for_one(const ClaimTokens& in, const ClaimTokens& ex);

// Whether `in` says its subject changed to a thing of another kind than
// what `ex`'s copula says it is: "upgraded to a MacBook Pro" is not what
// "is a designer" was, where "changed to Omar" replaces "is Sara" and
// "downgraded to the Pro plan" "is on the Enterprise plan". Of another kind
// when they share no word and no kind of word: a day or month, another
// value, a name, a common word.
[[nodiscard]] bool changed_to_another_kind(const ClaimTokens& in, const ClaimTokens& ex);

// Whether the values `in` and `ex` replace in each other say other things of
// their subject: a day (a weekday, a month, a date, a year) against a time
// of day or another value ("The meeting is on Thursday" and "… in Room 4",
// "The standup is on Fridays" and "… at 9:30"). Both hold.
[[nodiscard]] bool of_another_aspect(const ClaimTokens& in, const ClaimTokens& ex);

// Whether the claim reports what its subject was at a past time it names,
// by its copula in the past tense and without a word of change: "The water
// bill was £112 last quarter", "The cluster was down yesterday". It says
// nothing of what holds now, and what holds now does not undo it.
[[nodiscard]] bool dated_to_past(const ClaimTokens& claim);

} // namespace engram::claims::detail
