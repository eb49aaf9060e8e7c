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
// preposition, or either has none: "works at Globex" and "works from home"
// relate the user to other kinds of thing, as "deploys with ArgoCD" and
// "deploys on Fridays" do.
[[nodiscard]] bool by_one_preposition(const ClaimTokens& in, const ClaimTokens& ex);

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

} // namespace engram::claims::detail
