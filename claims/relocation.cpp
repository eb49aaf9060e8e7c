// A change to a named thing or a team, read as what holds now (see relocation.hpp).
#include "claims/relocation.hpp"

#include "claims/alike.hpp"
#include "claims/compare.hpp"
#include "claims/token_idioms.hpp"
#include "claims/token_values.hpp"
#include "claims/token_words.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace engram::claims::detail {
namespace {

// What a change leaves, to be read against a claim that states it.
enum class Leaves : unsigned char {
  place,    // where its subject is: one place, once moved to
  use,      // what it uses: one thing, once switched to
  employer, // where it works
  team,     // the team or group it is on or a member of
  any,      // a place, a thing used or an employer, left
};

// What a change names as what it changed to: a name written capitalised
// ("Braga", "Tyrell Corp"), a team or group ("the platform team", "the
// security guild"), or a thing named by a common noun ("a standing desk"),
// which a claim it updates must name by the same last word ("uses a
// treadmill desk").
enum class Object : unsigned char { name, team, noun };

// A change as written: its verb (a past: "moves to Braga next month" is
// where it is not yet), the word between the verb and what it changed to
// ("" for none), what it leaves and names, whether it ends the state it
// names ("left Acme") and whether it may add to the state rather than
// replace it (one may work at two places, or be on two teams, after
// joining one). Read in this order: a team before a noun.
struct ChangeVerb {
  std::string_view verb;
  std::string_view then;
  Leaves leaves;
  Object object = Object::name;
  bool ends = false;
  bool tentative = false;
};

constexpr std::array<ChangeVerb, 15> k_changes = {{
    {"moved", "to", Leaves::place},
    {"relocated", "to", Leaves::place},
    {"switched", "to", Leaves::use},
    {"migrated", "to", Leaves::use},
    {"joined", "", Leaves::employer, Object::name, false, true},
    {"started", "at", Leaves::employer, Object::name, false, true},
    {"left", "", Leaves::any, Object::name, true, false},
    {"quit", "", Leaves::any, Object::name, true, false},
    {"moved", "to", Leaves::team, Object::team},
    {"switched", "to", Leaves::team, Object::team},
    {"transferred", "to", Leaves::team, Object::team},
    {"joined", "", Leaves::team, Object::team, false, true},
    {"left", "", Leaves::team, Object::team, true, false},
    {"quit", "", Leaves::team, Object::team, true, false},
    {"switched", "to", Leaves::use, Object::noun},
}};

// The stems of the verbs that state what a change leaves: where a thing is
// ("lives in", "resides in", "is based in", "is located in", "is hosted
// on", "is kept in", "is stored in"), what it uses ("uses", "runs on",
// "prefers"), where one works ("works at", "works for", "is employed at").
constexpr std::array<std::string_view, 7> k_being_at = {"liv",  "resid", "bas", "locat",
                                                        "host", "keep",  "stor"};
constexpr std::array<std::string_view, 3> k_using = {"use", "run", "pref"};

// Stems of verbs that say where a thing is only in the passive: "Bugs are
// tracked in Jira", "Tickets are handled in Zendesk", "Secrets are managed
// in Vault"; "Marta manages the Lisbon office" says no place Marta is.
constexpr std::array<std::string_view, 3> k_kept_at = {"track", "handl", "manag"};
constexpr std::array<std::string_view, 2> k_working = {"work", "employ"};

// Stems of the verbs whose object has one holder at a time: a service is
// owned, a team led, a project maintained by one.
constexpr std::array<std::string_view, 5> k_holding = {"own", "lead", "maintain", "manag", "head"};

// Articles: what follows one is named by a common noun.
constexpr std::array<std::string_view, 3> k_articles = {"a", "an", "the"};

// Words that say only when a change happened ("last month", "two weeks
// ago"), as written: what holds now does not hang on them.
constexpr std::array<std::string_view, 21> k_when = {
    "last",    "this", "past",   "recently", "yesterday", "today", "ago",
    "earlier", "week", "weeks",  "month",    "months",    "year",  "years",
    "day",     "days", "summer", "spring",   "autumn",    "fall",  "winter",
};

// The verb that opens `claim`'s predicate, stemmed: the verb of "runs on",
// or the first word after a copula or of a predicate with none ("uses").
const std::string& verb_of(const ClaimTokens& claim) {
  return !claim.verb.empty() || claim.sequence.empty() || claim.at_place ? claim.verb
                                                                         : claim.sequence.front();
}

// Nouns that name a group one is on or a member of, of many such groups.
constexpr std::array<std::string_view, 12> k_groups = {
    "team",  "guild",  "club",    "committee", "board", "band",
    "choir", "league", "council", "squad",     "crew",  "group",
};

// Whether `claim`'s predicate names a group (see k_groups), by its stem.
bool names_group(const ClaimTokens& claim) {
  static const auto stems = stems_of(k_groups);
  return std::any_of(stems.begin(), stems.end(),
                     [&](const std::string& stem) { return holds(claim.predicate, stem); });
}

// Whether `claim` says which team or group its subject is on: "is on the
// platform team", "works in the platform team", "is a member of the
// security guild".
bool on_team(const ClaimTokens& claim) {
  const bool on = claim.copular && (claim.verb.empty() || claim.verb == "work");
  return (on || claim.verb == "member") && names_group(claim);
}

// The word that states `claim`'s membership as its words hold it ("memb"
// of "is a member of"; none for "is on the school board"), or its verb for
// any other claim.
std::string team_verb(const ClaimTokens& claim) {
  if (claim.verb != "member") {
    return claim.verb;
  }
  const bool worded = !claim.sequence.empty() && is_membership_word(claim.sequence.front());
  return worded ? claim.sequence.front() : std::string();
}

// Whether `verb` says where `claim`'s subject is: "lives in", "is kept in",
// and in the passive only "is tracked in" (Marta manages an office; she is
// not in it); or its copula does ("is in Austin").
bool states_place(const ClaimTokens& claim, const std::string& verb) {
  return is_listed(k_being_at, verb) || (claim.copular && is_listed(k_kept_at, verb)) ||
         (verb.empty() && claim.at_place);
}

// The verb of `claim` that states what `change` leaves, or nullopt when it
// states no such thing; "" for the copula of "is on the … team".
std::optional<std::string> state_verb(const ClaimTokens& claim, const ChangeVerb& change) {
  const std::string& verb = verb_of(claim);
  const bool place = states_place(claim, verb);
  const bool use = is_listed(k_using, verb);
  const bool work = is_listed(k_working, verb);
  switch (change.leaves) {
  case Leaves::place:
    return place ? std::optional(verb) : std::nullopt;
  case Leaves::use:
    return use ? std::optional(verb) : std::nullopt;
  case Leaves::employer:
    return work && !on_team(claim) ? std::optional(verb) : std::nullopt;
  case Leaves::team:
    return on_team(claim) ? std::optional(team_verb(claim)) : std::nullopt;
  case Leaves::any:
    return (place || use || work) && !on_team(claim) ? std::optional(verb) : std::nullopt;
  }
  return std::nullopt;
}

// Whether what `change` leaves is one value of its subject, whatever the
// verb that states it: a thing is kept in one place ("is kept in
// Confluence"), and once switched it uses one thing.
bool one_value(const ChangeVerb& change) {
  return change.leaves == Leaves::place || change.leaves == Leaves::use;
}

// In `list`, the change's verb `from` replaced by `to`, or left out for none.
void replace_verb(std::vector<std::string>& list, const std::string& from, const std::string& to,
                  bool sorted) {
  if (to.empty()) {
    std::erase(list, from);
  } else if (sorted) {
    replace_sorted(list, from, to);
  } else {
    std::replace(list.begin(), list.end(), from, to);
  }
}

// `mover` read as stating what its change left with `verb`, as `other` does.
ClaimTokens changed_as_state(ClaimTokens mover, const ClaimTokens& other, const std::string& verb) {
  const auto& change = k_changes[mover.moved_as];
  replace_verb(mover.words, mover.moved, verb, true);
  replace_verb(mover.predicate, mover.moved, verb, true);
  replace_verb(mover.sequence, mover.moved, verb, false);
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
  if (change.leaves == Leaves::team) {
    mover.scopes.clear(); // "the mobile team" names the team, not where the claim holds
  }
  mover.verb = other.verb;
  // A move replaces where one is whole, whatever kind of thing the older
  // claim named it by ("moved to a new apartment in Porto" after "lives in Lisbon").
  mover.preposition.clear();
  mover.copular = other.copular || one_value(change);
  mover.at_place = other.at_place && change.leaves == Leaves::place; // "is at 14 Mill Road"
  mover.negated = mover.negated != change.ends;
  mover.moved.clear();
  mover.moved_when.clear();
  mover.dated = false; // when it moved, not where it was then
  return mover;
}

// Where one lives, moved into somewhere: "moved to a house in York" moves to York.
constexpr std::array<std::string_view, 6> k_dwellings = {"house", "flat",  "apartment",
                                                         "home",  "condo", "cabin"};

// Where the place a move names opens: past "a house in" or "a new flat in",
// or at `at`.
std::size_t past_dwelling(const std::vector<Token>& ordered, std::size_t at) {
  if (at >= ordered.size() || !is_listed(k_articles, ordered[at].text)) {
    return at;
  }
  for (std::size_t k = at + 1; k + 1 < ordered.size() && k <= at + 2; ++k) {
    if (!ordered[k].value && is_listed(k_dwellings, ordered[k].text) &&
        ordered[k + 1].text == "in") {
      return k + 2;
    }
  }
  return at;
}

// Where what a change changed to ends when it starts at `at`, named as
// `object` asks: past a name's words (in `proper`); past "the", up to three
// words and a group's noun ("team", "guild"); past an article and up to
// three values or words that neither say when nor are function words. 0
// when there is none there.
std::size_t object_end(const std::vector<Token>& ordered, std::size_t at,
                       const std::unordered_set<std::string>& proper, Object object) {
  const auto word = [&](std::size_t k) { return k < ordered.size() && !ordered[k].value; };
  // A place's name may follow its number: "moved to 3 Station Street".
  const auto named_at = house_number(ordered, at, proper) ? at + 1 : at;
  if (at >= ordered.size() || (ordered[at].value && named_at == at)) {
    return 0;
  }
  std::size_t end = named_at;
  switch (object) {
  case Object::name:
    while (word(end) && proper.contains(ordered[end].text)) {
      ++end;
    }
    return end > named_at ? end : 0;
  case Object::team:
    for (std::size_t k = at + 1; ordered[at].text == "the" && word(k) && k <= at + 4; ++k) {
      if (is_listed(k_groups, ordered[k].text)) {
        return k > at + 1 ? k + 1 : 0; // "joined the team" names none
      }
    }
    return 0;
  case Object::noun:
    if (!is_listed(k_articles, ordered[at].text)) {
      return 0;
    }
    end = at + 1;
    while (end < ordered.size() && end <= at + 3 &&
           (ordered[end].value ||
            (!is_stopword(ordered[end].text) && !is_listed(k_when, ordered[end].text)))) {
      ++end;
    }
    return end > at + 1 ? end : 0;
  }
  return 0;
}

// The last word of what `claim` says after its verb, the when-words of a
// change left out: "desk" of "uses a treadmill desk".
std::string head_noun(const ClaimTokens& claim) {
  for (auto it = claim.sequence.rbegin(); it != claim.sequence.rend(); ++it) {
    if (std::find(claim.moved_when.begin(), claim.moved_when.end(), *it) ==
        claim.moved_when.end()) {
      return *it;
    }
  }
  return {};
}

// The words after a change's object, from `end`, that say when it
// happened; nullopt when anything else follows.
std::optional<std::vector<std::string>> when_after(const std::vector<Token>& ordered,
                                                   std::size_t end) {
  std::vector<std::string> when;
  for (std::size_t v = end; v < ordered.size(); ++v) {
    const auto& token = ordered[v];
    if (!token.value && !is_stopword(token.text) && !is_listed(k_when, token.text)) {
      return std::nullopt;
    }
    if (token.value || !is_stopword(token.text)) {
      when.push_back(token.value ? token.text : comparable_stem(token.text));
    }
  }
  return when;
}

} // namespace

void read_relocation(const std::vector<Token>& ordered,
                     const std::unordered_set<std::string>& proper, ClaimTokens& tokens) {
  for (std::size_t w = 0; w + 1 < ordered.size(); ++w) {
    for (std::size_t c = 0; c < k_changes.size(); ++c) {
      const auto& change = k_changes[c];
      const std::size_t at = w + (change.then.empty() ? 1 : 2);
      if (ordered[w].value || ordered[w].text != change.verb ||
          (!change.then.empty() && ordered[w + 1].text != change.then)) {
        continue;
      }
      const auto opens = change.leaves == Leaves::place ? past_dwelling(ordered, at) : at;
      const auto end = object_end(ordered, opens, proper, change.object);
      auto when = end == 0 ? std::nullopt : when_after(ordered, end);
      if (when) {
        tokens.moved = comparable_stem(ordered[w].text);
        tokens.moved_when = std::move(*when);
        tokens.moved_as = static_cast<unsigned char>(c);
        return;
      }
    }
  }
}

std::optional<ChangeRead> change_as_state(const ClaimTokens& in, const ClaimTokens& ex) {
  if (in.moved.empty() == ex.moved.empty()) {
    return std::nullopt;
  }
  const bool in_moved = !in.moved.empty();
  const ClaimTokens& mover = in_moved ? in : ex;
  ClaimTokens other = in_moved ? ex : in;
  const auto& change = k_changes[mover.moved_as];
  const auto verb = state_verb(other, change);
  if (!verb || (change.object == Object::noun && head_noun(mover) != head_noun(other))) {
    return std::nullopt;
  }
  other.copular = other.copular || one_value(change);
  if (change.leaves == Leaves::team) {
    other.scopes.clear();
  }
  auto changed = changed_as_state(mover, other, *verb);
  if (in_moved) {
    return ChangeRead{std::move(changed), std::move(other), change.tentative};
  }
  return ChangeRead{std::move(other), std::move(changed), change.tentative};
}

Judgment judged_change(const Judgment& j, bool tentative) {
  return tentative && j.relation == Relation::update
             ? Judgment{Relation::uncertain, Why::joined, j.score}
             : j;
}

bool states_what_changes_leave(const ClaimTokens& claim) {
  const std::string& verb = verb_of(claim);
  return states_place(claim, verb) || is_listed(k_using, verb) || is_listed(k_working, verb) ||
         on_team(claim);
}

std::optional<Judgment> holder_changed(const ClaimTokens& in, const ClaimTokens& ex,
                                       std::string_view in_normal, std::string_view ex_normal) {
  const auto names_the = [](std::string_view normal, const std::string& verb) {
    for (auto at = normal.find(verb); at != std::string_view::npos;
         at = normal.find(verb, at + 1)) {
      const auto space = normal.find(' ', at);
      const bool word_start = at == 0 || normal[at - 1] == ' '; // not the "own" of "down"
      if (word_start && space != std::string_view::npos &&
          normal.substr(space + 1).starts_with("the ")) {
        return true;
      }
    }
    return false;
  };
  const bool holding = states_holding(in) && in.sequence == ex.sequence &&
                       in.predicate == ex.predicate && in.values == ex.values && !in.negated &&
                       !ex.negated;
  const bool others =
      !ex.subject.empty() && missing(in.subject, ex.subject).size() == in.subject.size();
  if (!holding || !others || !names_the(in_normal, in.sequence.front()) ||
      !names_the(ex_normal, ex.sequence.front())) {
    return std::nullopt;
  }
  return Judgment{in.now ? Relation::update : Relation::uncertain, Why::holder, 0.5};
}

bool relate_alike(const ClaimTokens& in, const ClaimTokens& ex) {
  return in.verb == ex.verb || (states_place(in, in.verb) && states_place(ex, ex.verb));
}

} // namespace engram::claims::detail

namespace engram::claims {

bool states_holding(const ClaimTokens& tokens) {
  return !tokens.subject.empty() && !tokens.sequence.empty() &&
         detail::is_listed(detail::k_holding, tokens.sequence.front());
}

} // namespace engram::claims
