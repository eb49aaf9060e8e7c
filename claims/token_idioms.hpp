// Idioms read as what they say, private to claims/ (see token_idioms.cpp).
#pragma once

#include "claims/subject.hpp"
#include "claims/tokens.hpp"

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace engram::claims::detail {

// Removes the phrases that say nothing of what a claim says: "Make sure to
// bump the changelog", "Don't forget to bump the changelog" and "Bump the
// changelog" are one rule, its negation their opposite, "the editor of
// choice" "the editor", "avoid using X" "avoid X". True when it removed a phrase opening an
// instruction ("Make sure to", "Be sure to", "Remember to", "Lena asked me
// to"): the instruction follows.
bool drop_idioms(std::vector<Token>& out);

// `text` with a contrast written ", not X" (or "; not X", or "(not X)") as
// "instead of X": "Post it in #ops now, not #general" chooses #ops over
// #general as "Post it in #ops instead of #general" does, and so does "Post
// it in #ops (not #general)". Not "not only", "not yet" and the like.
[[nodiscard]] std::string contrast_as_choice(std::string_view text);

// Reads "has a peanut allergy" as "is allergic to peanut": one allergy,
// said either way. Only one or two words may name what it is to.
void allergy_as_allergic(std::vector<Token>& out);

// Reads the "get" of a passive after its subject as the copula it stands
// for: "Payments get processed through Stripe" says what "Payments are
// processed through Stripe" does, and "The build got cached" what "The
// build was cached" does. "Get" that opens an instruction, or that has no
// participle after it ("gets a refund"), stays. "Has got a cat" says "has a
// cat".
void passive_get_as_is(std::vector<Token>& out);

// Reads a passive of change to a value as the copula it leaves: "The
// timeout is set to 30 seconds" says what "The timeout is 30 seconds" does,
// and "The proofer was changed to 27°C" what "The proofer was 27°C" does.
// Changed to words, it stays, so that a change to a thing of another kind
// shows ("was upgraded to a MacBook Pro", see changed_to_another_kind); so
// do a move or a switch (see relocation.hpp), a rename, whose verb says the
// value is a name, an infinitive ("is set to expire") and a change dated
// to a past time ("was raised to £9,000 last month").
void change_to_as_copula(std::vector<Token>& out);

// Reads a claim that forbids what its gerund does as the rule that says
// never to do it: "Force-pushing to main is never allowed" (is not
// permitted, is forbidden, is prohibited) says what "Never force-push to
// main" does. What is only allowed ("Squashing is allowed") stays a fact.
void forbidden_as_never(std::vector<Token>& out);

// Drops "new" and "current" between a determiner and the rest of a claim's
// subject, whose predicate opens at `predicate.at` (moved back with it):
// "The user's new manager is Kim" is about the manager the user has, with
// a value replaced, not about another subject. Not in a name (`proper`:
// "the New York office").
void holder_without_now(std::vector<Token>& out, const std::unordered_set<std::string>& proper,
                        Predicate& predicate);

// Reads the participle of a passive that says a thing was done again
// ("was rewritten in Go", "was rescheduled for May 3") as the thing done:
// it states the new value of the relation "is written in Kotlin" states.
void redone_as_done(std::vector<Token>& out, const Predicate& predicate);

// Whether the predicate opening at `at`, or the claim's first word, is in
// the past tense: "was", "were", "had", "did", a verb ending in "-ed" or a
// common irregular past ("was sick", "Deployed v2.1 to staging", "Ryan went
// home early").
[[nodiscard]] bool in_past(const std::vector<Token>& out, std::size_t at);

// Whether the predicate opening at `at` names a past time: "yesterday",
// "3 days ago", "last quarter", "last Friday".
[[nodiscard]] bool names_past_time(const std::vector<Token>& out, std::size_t at);

// Whether the complement of a copula, opening at `w`, says a group its
// subject is one of: "a member of the platform guild", "part of the SRE
// rotation", "a contributor to Kubernetes". A subject is in many at once.
[[nodiscard]] bool states_membership(const std::vector<Token>& out, std::size_t w);

// The stem of the last word of a copula's complement opening at `w` with
// "a" or "on the" ("is a MacBook Pro owner": "owner"; "is on the Pro plan":
// "on plan"), which names what kind of thing its subject is, or is on;
// empty for any other complement, and for one that ends in a name or a value.
[[nodiscard]] std::string complement_head(const std::vector<Token>& out, std::size_t w,
                                          const std::unordered_set<std::string>& proper);

// Reads "Ryan switched accountants to Paul Brandt" as "Ryan's accountant is
// Paul Brandt": one changes the thing one has of a kind, so the new one is
// that thing now. Only where a name (`proper`), a value or "a"/"the" follows
// "to": "switched providers to cut costs" says why, not what. The kind may
// be two words ("changed letting agents to"), and the writer's own thing is
// the thing itself ("We changed banks to Monzo": the bank is Monzo).
void switched_as_state(std::vector<Token>& out, const std::unordered_set<std::string>& proper);

// Reads, in one pass over `plain`'s words, whether it says what it states is
// new ("now", "instead", "anymore", "no longer"; not "now also", which adds
// to what was), and whether it says the user does something on a weekday
// that recurs ("works from home on Mondays", "every Friday") and is not new:
// people keep a habit on several days, so another day is another occasion,
// where an event's one day ("Standup is on Mondays") moves.
void read_now_and_habit(std::string_view plain, ClaimTokens& tokens);

// Whether `stem` is the stem of a verb whose subject holds many objects at
// once ("speaks French", "supports SAML", "has a dog"): one more named with
// "now" ("now speaks Spanish") is added to them, not put in their place.
[[nodiscard]] bool holds_many_at_once(const std::string& stem);

// Whether the stem names a part of the day or a kind of day, as a weekday
// does: "in the mornings", "on weekends", "on public holidays".
[[nodiscard]] bool names_part_of_day(const std::string& stem);

// Whether `stem` is the stem of a word states_membership reads ("memb" of
// "a member of"); a seat on a board is said with none.
[[nodiscard]] bool is_membership_word(const std::string& stem);

} // namespace engram::claims::detail
