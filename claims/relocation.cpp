// A move or a switch to a named thing, read as what holds now (see relocation.hpp).
#include "claims/relocation.hpp"

#include "claims/alike.hpp"
#include "claims/token_values.hpp"
#include "claims/token_words.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace engram::claims::detail {
namespace {

// Verbs that say a thing moved to a place, as written (a past: "moves to
// Braga next month" is where it is not yet), and the stems of the verbs
// that say where a thing is: "lives in", "resides in", "is based in", "is
// located in", "is hosted on".
constexpr std::array<std::string_view, 2> k_moving = {"moved", "relocated"};
constexpr std::array<std::string_view, 5> k_being_at = {"liv", "resid", "bas", "locat", "host"};

// Verbs that say a thing switched to another, as written, and the stems of
// the verbs that say what it uses: "uses", "runs on", "prefers". A switch
// leaves one in use, so what the other claim uses is its one value.
constexpr std::array<std::string_view, 2> k_switching = {"switched", "migrated"};
constexpr std::array<std::string_view, 3> k_using = {"use", "run", "pref"};

// Words that say only when a change happened ("last month", "two weeks
// ago"), as written: what holds now does not hang on them.
constexpr std::array<std::string_view, 21> k_when = {
    "last",    "this", "past",   "recently", "yesterday", "today", "ago",
    "earlier", "week", "weeks",  "month",    "months",    "year",  "years",
    "day",     "days", "summer", "spring",   "autumn",    "fall",  "winter",
};

// Whether `stem` is the stem of one of `verbs` (as written).
template <std::size_t N>
bool stem_of_any(const std::array<std::string_view, N>& verbs, const std::string& stem) {
  return std::any_of(verbs.begin(), verbs.end(), [&](std::string_view verb) {
    return comparable_stem(std::string(verb)) == stem;
  });
}

// The verb that opens `claim`'s predicate, stemmed: the verb of "runs on",
// or the first word after a copula or of a predicate with none ("uses").
const std::string& verb_of(const ClaimTokens& claim) {
  return !claim.verb.empty() || claim.sequence.empty() ? claim.verb : claim.sequence.front();
}

// The verb of `claim` that states what the change `changed` (a stem of a
// verb of moving or switching) leaves: where it is, or what it uses; "" for none.
std::string state_verb(const ClaimTokens& claim, const std::string& changed) {
  const std::string& verb = verb_of(claim);
  const bool states =
      stem_of_any(k_moving, changed) ? is_listed(k_being_at, verb) : is_listed(k_using, verb);
  return states ? verb : std::string();
}

// `mover` read as stating what its change left with `verb`, as `other` does.
ClaimTokens changed_as_state(ClaimTokens mover, const ClaimTokens& other, const std::string& verb) {
  for (auto* list : {&mover.words, &mover.predicate}) {
    replace_sorted(*list, mover.moved, verb);
  }
  std::replace(mover.sequence.begin(), mover.sequence.end(), mover.moved, verb);
  for (const auto& token : mover.moved_when) {
    for (auto* list : {&mover.predicate, &mover.sequence, &mover.narrowed}) {
      std::erase(*list, token);
    }
    if (holds(mover.subject, token)) {
      continue; // said of the subject too ("The summer interns moved … this summer")
    }
    for (auto* list : {&mover.words, &mover.values, &mover.dates}) {
      std::erase(*list, token);
    }
  }
  mover.verb = other.verb;
  mover.copular = other.copular || stem_of_any(k_switching, mover.moved);
  mover.moved.clear();
  mover.moved_when.clear();
  return mover;
}

} // namespace

void read_relocation(const std::vector<Token>& ordered,
                     const std::unordered_set<std::string>& proper, ClaimTokens& tokens) {
  for (std::size_t w = 0; w + 2 < ordered.size(); ++w) {
    const bool changes =
        is_listed(k_moving, ordered[w].text) || is_listed(k_switching, ordered[w].text);
    if (ordered[w].value || !changes || ordered[w + 1].text != "to" || ordered[w + 2].value ||
        !proper.contains(ordered[w + 2].text)) {
      continue;
    }
    std::size_t end = w + 3; // past the place's name, which may be several words
    while (end < ordered.size() && !ordered[end].value && proper.contains(ordered[end].text)) {
      ++end;
    }
    tokens.moved = comparable_stem(ordered[w].text);
    // What follows the place is left out only when it says nothing but when.
    std::vector<std::string> when;
    for (std::size_t v = end; v < ordered.size(); ++v) {
      const auto& token = ordered[v];
      if (!token.value && !is_stopword(token.text) && !is_listed(k_when, token.text)) {
        return;
      }
      if (token.value || !is_stopword(token.text)) {
        when.push_back(token.value ? token.text : comparable_stem(token.text));
      }
    }
    tokens.moved_when = std::move(when);
    return;
  }
}

std::optional<std::pair<ClaimTokens, ClaimTokens>> change_as_state(const ClaimTokens& in,
                                                                   const ClaimTokens& ex) {
  if (in.moved.empty() == ex.moved.empty()) {
    return std::nullopt;
  }
  const bool in_moved = !in.moved.empty();
  const ClaimTokens& mover = in_moved ? in : ex;
  ClaimTokens other = in_moved ? ex : in;
  const std::string verb = state_verb(other, mover.moved);
  if (verb.empty()) {
    return std::nullopt;
  }
  other.copular = other.copular || stem_of_any(k_switching, mover.moved);
  auto changed = changed_as_state(mover, other, verb);
  if (in_moved) {
    return std::pair{std::move(changed), std::move(other)};
  }
  return std::pair{std::move(other), std::move(changed)};
}

bool states_what_changes_leave(const ClaimTokens& claim) {
  const std::string& verb = verb_of(claim);
  return is_listed(k_being_at, verb) || is_listed(k_using, verb);
}

} // namespace engram::claims::detail
