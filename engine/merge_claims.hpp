// Merge claims: the claims of the versions a memory merge joins
// (engine/memory_merge.hpp), and what becomes of each: live, removed because
// one side removed it, folded into a near-duplicate, or superseded by the
// newer side's value. Decisions depend on which side is newer, never on which
// is ours, so both orders of a merge keep the same claims.
#pragma once

#include "claims/compare.hpp"

#include <array>
#include <cstddef>
#include <engram/date.hpp>
#include <engram/rule.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::engine::merge {

// The two sides, also the index of each in the arrays below.
enum Side : std::size_t { ours = 0, theirs = 1 };

// The other side.
inline Side other(Side side) {
  return side == ours ? theirs : ours;
}

// One claim of a version, where it stands in its body.
struct Unit {
  std::string key;                  // its own text with "\n" line ends: its name in every version
  std::string own;                  // its text without its superseded markers
  std::vector<std::string> markers; // its markers, and those standing alone after it
  std::string context;              // the headings above it, as split_claims gives them
  std::size_t at = 0;               // where its text starts in the body; npos when not found
  std::size_t size = 0;             // its text's length
};

// One version's claims, in source order.
struct VersionClaims {
  std::vector<Unit> units;
  std::vector<std::string> loose; // markers of a body that has no claim to carry them
};

// Reads the claims of a body: split_claims, each claim located and split
// from its markers. A marker standing alone (a block after a paragraph) goes
// with the claim before it, or the first claim when none is before it.
[[nodiscard]] VersionClaims read_claims(std::string_view body);

// What becomes of a claim in the merge.
enum class Fate {
  live,       // in the merged file
  removed,    // one side removed or replaced it, the other left it as base had it
  duplicate,  // the same claim as another, which holds its markers
  superseded, // the older side's value of what the newer side changed too: in a marker
};

// One claim as either side holds it, named by its own text.
struct Entity {
  std::string key;                                 // the units' key
  std::array<std::vector<std::size_t>, 2> units;   // its units on each side, in order
  std::array<std::vector<std::string>, 2> markers; // the markers each side gives it
  std::array<bool, 2> as_base{};                   // the side holds it as base did, markers too
  bool in_base = false;                            // base holds its text
  Fate fate = Fate::live;
  std::size_t into = SIZE_MAX;     // duplicate, superseded: where it went; removed: what took
                                   // its place on the other side, if anything did
  std::vector<std::string> gained; // markers taken from the claims folded into it
  mutable std::optional<claims::PreparedClaim> prepared; // for comparing, made once

  // True when the side holds it.
  [[nodiscard]] bool on(Side side) const { return !units[side].empty(); }
  // True when both sides hold it.
  [[nodiscard]] bool both() const { return on(ours) && on(theirs); }
  // Every marker it carries in the merge: each side's, then those it gained.
  [[nodiscard]] std::vector<std::string> all_markers() const;
};

// Who the sides are, and what the decisions need to know of the merge.
struct Roles {
  std::array<std::string, 2> names; // each side's name, for the record
  Side newer = theirs;              // the side whose value wins
  Date today;                       // the date of the markers written
  std::string path;                 // the file, for the record
  double near_threshold = 0.9;      // duplicate containment
};

// Every claim of both sides and what becomes of it.
struct Decisions {
  std::array<const VersionClaims*, 2> sides{};       // the versions decided over
  std::vector<Entity> entities;                      // in order: ours' claims, then theirs'
  std::array<std::vector<std::size_t>, 2> entity_of; // the entity of each unit of each side
  std::vector<Action> actions; // superseded and duplicate records, in decision order

  // The own text of an entity, as the first side that holds it wrote it.
  [[nodiscard]] const std::string& own(const Entity& entity) const;
  // The live entity that an entity ended in (itself when live), following `into`.
  [[nodiscard]] const Entity& live_end(const Entity& entity) const;
};

// Decides what becomes of every claim of `ours` and `theirs`, three-way
// against `base` (nullptr when there is none).
[[nodiscard]] Decisions decide(const VersionClaims* base, const VersionClaims& ours,
                               const VersionClaims& theirs, const Roles& roles);

// `text` with its "\r\n" line ends as "\n": what the merge reads and
// compares, whatever line ends each version has.
[[nodiscard]] std::string lf(std::string_view text);

// Appends each of `from` to `to` that `to` does not hold yet.
void add_unique(std::vector<std::string>& to, const std::vector<std::string>& from);

} // namespace engram::engine::merge
