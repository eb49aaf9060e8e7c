// A change to a named thing, read as what holds now: "Marta moved to Braga"
// says what "Marta lives in Braga" says, and so updates "Marta lives in
// Porto"; "The team switched to Linear" says what "The team uses Linear"
// says, and updates "The team uses Jira". Private to claims/ (tokens.cpp,
// compare.cpp).
#pragma once

#include "claims/subject.hpp"
#include "claims/tokens.hpp"

#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace engram::claims::detail {

// Notes in `tokens` a change its claim states (see ClaimTokens::moved): a
// past verb of moving ("moved", "relocated") or of switching ("switched",
// "migrated"), "to", and a name written capitalised (in `proper`). A value
// ("moved to Thursday") or a common noun ("moved to the backend team",
// "switched to a standing desk") names no such thing.
void read_relocation(const std::vector<Token>& ordered,
                     const std::unordered_set<std::string>& proper, ClaimTokens& tokens);

// The two claims with the change one of them states read as the other
// states what holds: a move as where its subject is ("lives in", "resides
// in", "is based in", "is located in", "is hosted on"), a switch as what it
// uses ("uses", "runs on", "prefers", each then its one value). The other's
// verb takes the change's place, and the words that say only when it
// happened are left out. nullopt when neither or both state a change, or
// the other states no such thing.
[[nodiscard]] std::optional<std::pair<ClaimTokens, ClaimTokens>>
change_as_state(const ClaimTokens& in, const ClaimTokens& ex);

// Whether `claim` states what a move or a switch leaves ("lives in",
// "uses"): compared with a claim of such a change, its verb is read in the
// change's place.
[[nodiscard]] bool states_what_changes_leave(const ClaimTokens& claim);

} // namespace engram::claims::detail
