// Merge claims: reading each version's claims, and deciding what becomes of
// every one. Part of the memory merge (engine/merge_claims.hpp).
#include "engine/merge_claims.hpp"

#include "claims/split.hpp"

#include <algorithm>
#include <engram/markers.hpp>
#include <engram/text.hpp>
#include <fmt/format.h>
#include <map>

namespace engram::engine::merge {
namespace {

// Where each line of `body` starts.
std::vector<std::size_t> line_starts(std::string_view body) {
  std::vector<std::size_t> starts{0};
  for (std::size_t at = body.find('\n'); at != std::string_view::npos;
       at = body.find('\n', at + 1)) {
    starts.push_back(at + 1);
  }
  return starts;
}

// Gives the markers that stand outside every claim of `body` to the claim
// before each (the first claim for those before any), or to `out.loose`.
void attach_standing_markers(std::string_view body, VersionClaims& out) {
  const auto open = markers::k_marker_open;
  std::size_t next = 0;            // the first unit not yet passed
  std::optional<std::size_t> last; // the last located unit that starts before the marker
  for (auto at = body.find(open); at != std::string_view::npos; at = body.find(open, at + 1)) {
    const auto close = body.find("-->", at + open.size());
    if (close == std::string_view::npos) {
      return;
    }
    for (; next < out.units.size() && out.units[next].at <= at; ++next) {
      last = next; // a unit not found (at npos) ends the walk: later markers go before it
    }
    // A marker inside a claim's text is the claim's already (split_markers).
    if (!last || at >= out.units[*last].at + out.units[*last].size) {
      auto& to = out.units.empty() ? out.loose : out.units[last.value_or(0)].markers;
      add_unique(to, {std::string(body.substr(at, close + 3 - at))});
    }
    at = close;
  }
}

// True when `a` and `b` hold the same markers, in any order.
bool same_markers(std::vector<std::string> a, std::vector<std::string> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  return a == b;
}

// The decisions being made, with what they need at hand.
class Decider {
public:
  Decider(const VersionClaims* base, const VersionClaims& ours, const VersionClaims& theirs,
          const Roles& roles)
      : m_base(base), m_roles(roles) {
    m_out.sides = {&ours, &theirs};
  }

  // Makes every decision, in order: removals, duplicates, values, replacements.
  Decisions run() {
    gather();
    mark_removals();
    for (const Side side : {m_roles.newer, other(m_roles.newer)}) {
      fold_duplicates(side);
    }
    resolve_values();
    resolve_shared_base();
    place_replacements();
    return std::move(m_out);
  }

private:
  // One entity per own text; each unit joins its entity; base says which are unchanged.
  void gather() {
    std::map<std::string, std::size_t, std::less<>> by_key;
    for (const Side side : {ours, theirs}) {
      const auto& units = m_out.sides[side]->units;
      for (std::size_t i = 0; i < units.size(); ++i) {
        auto [it, added] = by_key.try_emplace(units[i].key, m_out.entities.size());
        if (added) {
          m_out.entities.emplace_back().key = units[i].key;
        }
        auto& entity = m_out.entities[it->second];
        entity.units[side].push_back(i);
        add_unique(entity.markers[side], units[i].markers);
        m_out.entity_of[side].push_back(it->second);
      }
    }
    if (m_base == nullptr) {
      return;
    }
    std::map<std::string, std::vector<std::string>, std::less<>> base_markers;
    for (const auto& unit : m_base->units) {
      add_unique(base_markers[unit.key], unit.markers);
    }
    for (auto& entity : m_out.entities) {
      const auto found = base_markers.find(entity.key);
      entity.in_base = found != base_markers.end();
      for (const Side side : {ours, theirs}) {
        entity.as_base[side] =
            entity.in_base && entity.on(side) && same_markers(entity.markers[side], found->second);
      }
    }
  }

  // A claim only one side holds, as base had it: the other side removed or replaced it.
  void mark_removals() {
    for (auto& entity : m_out.entities) {
      for (const Side side : {ours, theirs}) {
        if (entity.on(side) && !entity.on(other(side)) && entity.as_base[side]) {
          entity.fate = Fate::removed;
        }
      }
    }
  }

  // True for a live claim only one side holds: one the merge must decide on.
  static bool contested(const Entity& entity) {
    return entity.fate == Fate::live && !entity.both();
  }

  // How `a` relates to `b`, as the engine judges claims.
  Relation relation(const Entity& a, const Entity& b) const {
    return claims::relation(prepared(a), prepared(b), m_roles.near_threshold);
  }

  // The entity's claim prepared for comparing, made on first use.
  const claims::PreparedClaim& prepared(const Entity& entity) const {
    if (!entity.prepared) {
      entity.prepared = claims::prepare(m_out.own(entity));
    }
    return *entity.prepared;
  }

  // Calls `each(entity)` for the entities of a side's claims, each once, in its order.
  template <typename Each> void for_each_on(Side side, Each each) {
    const auto& of = m_out.entity_of[side];
    for (std::size_t i = 0; i < of.size(); ++i) {
      auto& entity = m_out.entities[of[i]];
      if (entity.units[side].front() == i && !each(entity)) {
        return;
      }
    }
  }

  // A claim new on `side` that duplicates a claim of the other side is folded
  // into it: the one that holds more stays (the containing one, else the one
  // both sides hold, else the newer side's), with the markers of both.
  void fold_duplicates(Side side) {
    const Side other_side = other(side);
    for_each_on(side, [&](Entity& entity) {
      if (!contested(entity)) {
        return true;
      }
      for_each_on(other_side, [&](Entity& match) {
        if (match.fate != Fate::live) {
          return true;
        }
        const bool entity_in_match = relation(entity, match) == Relation::duplicate;
        const bool match_in_entity = relation(match, entity) == Relation::duplicate;
        const bool entity_goes =
            entity_in_match && (!match_in_entity || match.both() || other_side == m_roles.newer);
        if (entity_goes) {
          fold(entity, match, Fate::duplicate, side);
          return false;
        }
        if (match_in_entity && !match.both()) {
          fold(match, entity, Fate::duplicate, other_side);
        }
        return true;
      });
      return true;
    });
  }

  // The older side's new value of a claim the newer side changed too goes
  // into a superseded marker beside the newer one.
  void resolve_values() {
    const Side newer = m_roles.newer;
    for_each_on(other(newer), [&](Entity& older) {
      if (!contested(older)) {
        return true;
      }
      for_each_on(newer, [&](Entity& winner) {
        if (!contested(winner) || (relation(older, winner) != Relation::update &&
                                   relation(winner, older) != Relation::update)) {
          return true;
        }
        fold(older, winner, Fate::superseded, other(newer));
        return false;
      });
      return true;
    });
  }

  // Both sides replaced the same claim of base, with values the judgment
  // did not pair: the newer side's replacement wins all the same.
  void resolve_shared_base();

  // A claim ours loses whose place the other side's claim takes.
  void place_replacements();

  // Folds `loser` (of `side`) into `winner`: its markers, and for a
  // superseded one its text in a marker, go with the winner.
  void fold(Entity& loser, Entity& winner, Fate fate, Side side);

  const VersionClaims* m_base;
  const Roles& m_roles;
  Decisions m_out;
};

void Decider::resolve_shared_base() {
  if (m_base == nullptr) {
    return;
  }
  const Side newer = m_roles.newer;
  std::map<std::string, bool, std::less<>> held; // the keys either side holds
  for (const auto& entity : m_out.entities) {
    held[entity.key] = true;
  }
  for (const auto& unit : m_base->units) {
    if (held.contains(unit.key)) {
      continue;
    }
    Entity gone; // the base claim both sides replaced, for comparing
    gone.key = unit.key;
    gone.prepared = claims::prepare(unit.own);
    Entity* winner = nullptr;
    for_each_on(newer, [&](Entity& entity) {
      if (contested(entity) && relation(entity, gone) == Relation::update) {
        winner = &entity;
      }
      return winner == nullptr;
    });
    for_each_on(other(newer), [&](Entity& entity) {
      if (winner != nullptr && contested(entity) && relation(entity, gone) == Relation::update) {
        fold(entity, *winner, Fate::superseded, other(newer));
      }
      return true;
    });
  }
}

void Decider::place_replacements() {
  for (auto& removed : m_out.entities) {
    if (removed.fate != Fate::removed || !removed.on(ours)) {
      continue;
    }
    const auto& units = m_out.entity_of[theirs];
    for (std::size_t i = 0; i < units.size(); ++i) {
      auto& entity = m_out.entities[units[i]];
      if (contested(entity) && entity.on(theirs) && relation(entity, removed) == Relation::update) {
        removed.into = units[i];
        break;
      }
    }
  }
}

void Decider::fold(Entity& loser, Entity& winner, Fate fate, Side side) {
  loser.fate = fate;
  loser.into = static_cast<std::size_t>(&winner - m_out.entities.data());
  const auto& loser_text = m_out.own(loser);
  const auto& winner_text = m_out.own(winner);
  if (fate == Fate::superseded) {
    add_unique(winner.gained, {markers::superseded_marker(m_roles.today, loser_text)});
  }
  add_unique(winner.gained, loser.all_markers());
  const Side winner_side = winner.on(other(side)) ? other(side) : side;
  if (fate == Fate::superseded) {
    m_out.actions.push_back(Action{
        "sync", "superseded", winner_text, m_roles.names[winner_side], m_roles.path,
        fmt::format("changed on both sides: {}'s value is newer than \"{}\" of {}, which is "
                    "kept in a superseded marker",
                    m_roles.names[winner_side], text::one_line(loser_text), m_roles.names[side])});
  } else {
    m_out.actions.push_back(
        Action{"sync", "duplicate", loser_text, m_roles.names[side], winner_text,
               fmt::format("the same claim as {}'s, which holds it", m_roles.names[winner_side])});
  }
}

} // namespace

std::string lf(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!(text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      out += text[i];
    }
  }
  return out;
}

void add_unique(std::vector<std::string>& to, const std::vector<std::string>& from) {
  for (const auto& item : from) {
    if (std::find(to.begin(), to.end(), item) == to.end()) {
      to.push_back(item);
    }
  }
}

std::vector<std::string> Entity::all_markers() const {
  std::vector<std::string> out = markers[ours];
  add_unique(out, markers[theirs]);
  add_unique(out, gained);
  return out;
}

const std::string& Decisions::own(const Entity& entity) const {
  const Side side = entity.on(ours) ? ours : theirs;
  return sides[side]->units[entity.units[side].front()].own;
}

const Entity& Decisions::live_end(const Entity& entity) const {
  const Entity* at = &entity;
  while (at->fate != Fate::live && at->fate != Fate::removed && at->into < entities.size()) {
    at = &entities[at->into];
  }
  return *at;
}

VersionClaims read_claims(std::string_view body) {
  VersionClaims out;
  const auto starts = line_starts(body);
  std::size_t end = 0; // where the last claim found ends
  for (auto& claim : claims::split_claims(body)) {
    Unit unit;
    const auto line = static_cast<std::size_t>(std::max(claim.line, 1)) - 1;
    const auto from = std::max(end, line < starts.size() ? starts[line] : body.size());
    unit.at = body.find(claim.text, from);
    if (unit.at == std::string_view::npos) {
      unit.at = body.find(claim.text, end);
    }
    unit.size = claim.text.size();
    if (unit.at != std::string_view::npos) {
      end = unit.at + unit.size;
    }
    auto marked = markers::split_markers(claim.text);
    unit.own = std::move(marked.own);
    unit.key = lf(unit.own);
    unit.markers = std::move(marked.markers);
    unit.context = std::move(claim.context);
    out.units.push_back(std::move(unit));
  }
  attach_standing_markers(body, out);
  return out;
}

Decisions decide(const VersionClaims* base, const VersionClaims& ours, const VersionClaims& theirs,
                 const Roles& roles) {
  return Decider(base, ours, theirs, roles).run();
}

} // namespace engram::engine::merge
