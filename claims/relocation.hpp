// A change to a named thing or a team, read as what holds now: "Marta moved
// to Braga" says what "Marta lives in Braga" says, and so updates "Marta
// lives in Porto"; "The team switched to Linear" updates "The team uses
// Jira", "Lena moved to the platform team" updates "Lena is on the
// observability team", and "Dana left Acme" updates "Dana works at Acme".
// Private to claims/ (tokens.cpp, compare.cpp, alike.cpp).
#pragma once

#include "claims/judgment.hpp"
#include "claims/subject.hpp"
#include "claims/tokens.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace engram::claims::detail {

// Notes in `tokens` a change its claim states (see ClaimTokens::moved), a
// past verb and what it changed to: "moved" or "relocated" to a place,
// "switched" or "migrated" to a thing used, "joined" or "started at" an
// employer, each a name written capitalised (in `proper`); "moved",
// "switched", "transferred" to or "joined" a team ("the platform team");
// "left" a named place, employer or thing used. A value ("moved to
// Thursday") or another common noun ("switched to a standing desk") is no
// such thing, nor a change with more after it than when it happened.
void read_relocation(const std::vector<Token>& ordered,
                     const std::unordered_set<std::string>& proper, ClaimTokens& tokens);

// Two claims, one of them read as the state the other's change leaves.
struct ChangeRead {
  ClaimTokens in;
  ClaimTokens ex;
  bool tentative = false; // the change may add to what the other states, not replace it
};

// The two claims with the change one of them states read as the other
// states what holds: a move as where its subject is ("lives in", "resides
// in", "is based in", "is located in", "is hosted on"), a switch as what it
// uses ("uses", "runs on", "prefers", each then its one value), a join as
// where it works ("works at", "is employed at"), a change of team as the
// team it is on ("is on", "works on"), a departure as any of the first
// three, negated. The other's verb takes the change's place, and the words
// that say only when it happened are left out. nullopt when neither or both
// state a change, or the other states no such thing.
[[nodiscard]] std::optional<ChangeRead> change_as_state(const ClaimTokens& in,
                                                        const ClaimTokens& ex);

// `j`, the judgment of a pair as change_as_state read it: a change that may
// add rather than replace ("joined Globex" beside "works at Acme": one may
// work at both) updates nothing; the pair is kept and flagged instead.
[[nodiscard]] Judgment judged_change(const Judgment& j, bool tentative);

// Whether `claim` states what a change leaves ("lives in", "uses", "works
// at", "is on the … team"): compared with a claim of such a change, its
// verb is read in the change's place.
[[nodiscard]] bool states_what_changes_leave(const ClaimTokens& claim);

// The judgment of two claims that say another holds one thing ("Marco owns
// the billing service now" after "Priya owns the billing service"): one
// holder at a time owns, leads, maintains, manages or heads a thing named
// with "the" (`in_normal` and `ex_normal` are the claims' normalised
// texts). It replaces the older when it says so ("now"), else both are kept
// and flagged: there may be two. nullopt for claims that say no such thing.
[[nodiscard]] std::optional<Judgment> holder_changed(const ClaimTokens& in, const ClaimTokens& ex,
                                                     std::string_view in_normal,
                                                     std::string_view ex_normal);

// Whether the verbs of two claims relate their subjects to their values
// alike: the same verb (or both a copula), or two that say where a thing is
// ("is based in", "lives in", "is located in").
[[nodiscard]] bool relate_alike(const ClaimTokens& in, const ClaimTokens& ex);

} // namespace engram::claims::detail
