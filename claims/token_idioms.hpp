// Idioms read as what they say, private to claims/ (see token_idioms.cpp).
#pragma once

#include "claims/subject.hpp"

#include <string>
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

// Reads the "get" of a passive after its subject as the copula it stands
// for: "Payments get processed through Stripe" says what "Payments are
// processed through Stripe" does, and "The build got cached" what "The
// build was cached" does. "Get" that opens an instruction, or that has no
// participle after it ("gets a refund"), stays.
void passive_get_as_is(std::vector<Token>& out);

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

} // namespace engram::claims::detail
