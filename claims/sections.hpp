// ClaimSections: the claims of one body kept section by section, so that
// after an edit only the sections it touched are split again. A file that a
// consolidation appends to a thousand times is split once, plus once per
// section it changed, instead of a thousand times whole.
#pragma once

#include "claims/split.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace engram::claims {

// What one section of a body holds, wherever in the body it sits.
struct SectionClaims {
  // The headings in force before it and at its end; shared, as most
  // sections have no heading and pass on what they were given.
  std::shared_ptr<const HeadingStack> in;
  std::shared_ptr<const HeadingStack> out;
  std::vector<Claim> claims; // its claims, lines counted from its first line
  // Free for the user of the sections (a claim index numbers the claims here).
  mutable std::vector<std::uint32_t> ids;
};

// One section in place: where it sits and what it holds.
struct PlacedSection {
  std::size_t begin = 0;       // its first byte in the body
  std::size_t end = 0;         // one past its last byte
  int first_line = 1;          // the body line it starts on
  std::size_t first_claim = 0; // how many of the body's claims come before it
  std::shared_ptr<const SectionClaims> content;
};

// What an update changed: sections [first, first + removed) of the old body
// became [first, first + added) of the new one, and with them claims
// [claims_first, claims_first + claims_removed) became [claims_first,
// claims_first + claims_added). The sections before stand as they were;
// those after moved with their bytes and keep their content.
struct SectionChange {
  std::size_t first = 0;
  std::size_t removed = 0;
  std::size_t added = 0;
  std::size_t claims_first = 0;
  std::size_t claims_removed = 0;
  std::size_t claims_added = 0;
};

// The claims of successive versions of one body.
class ClaimSections {
public:
  // Brings the sections up to `body`: sections whose bytes and headings did
  // not change are kept, the others split again, and the range between is
  // what the call returns. The splitting done is the edit's, not the body's:
  // the sections before the edit stay where they are (only their offsets are
  // compared), and those after it are only moved. `memo`, when given,
  // classifies the claims of the sections split again; `kinds` says which
  // get a kind (see split_section).
  SectionChange update(std::string_view body, KindMemo* memo = nullptr, Kinds kinds = Kinds::all);

  // The sections of the body, in order.
  const std::vector<PlacedSection>& sections() const { return m_sections; }

  // Every claim of the body, lines counted from the body's start: equal to
  // split_claims(body).
  [[nodiscard]] std::vector<Claim> claims() const;

private:
  struct Edit;    // an edit of the body, as update reads it
  struct Placing; // the sections update places between those it keeps and those that moved

  // The edit that turns the body into `body`, which shares its first `prefix`
  // and last `suffix` bytes with it.
  [[nodiscard]] Edit read_edit(std::string_view body, std::size_t prefix, std::size_t suffix) const;
  // How many sections, from the first, the edit leaves as they are.
  [[nodiscard]] std::size_t kept_front(const Edit& edit) const;
  // How many sections, from the last, the edit only moved (their headings not yet checked).
  [[nodiscard]] std::size_t moved_back(const Edit& edit, std::size_t front) const;
  // The placing of the sections between the `front` kept and the `back` moved, before the first.
  [[nodiscard]] Placing start_placing(std::size_t front, std::size_t back) const;
  // Places every section between, and those moved sections whose headings changed.
  void place_between(const Edit& edit, Placing& placing, KindMemo* memo, Kinds kinds);
  // Places the edited body's section `k`: an old section's content if one fits, else split.
  void place(const Edit& edit, std::size_t k, Placing& placing, KindMemo* memo, Kinds kinds);
  // Puts the placed sections in place of the old ones between, moves those after, and takes
  // the edited body; returns what changed.
  SectionChange replace_between(const Edit& edit, Placing& placing);
  // The section of [from, to) starting at `begin`, if one does (update takes its content).
  PlacedSection* find(std::size_t from, std::size_t to, std::size_t begin);

  std::string m_body;                    // the body the sections are of
  std::vector<PlacedSection> m_sections; // its sections, in order
  std::vector<std::size_t> m_begins;     // where each starts: m_sections[i].begin
  std::size_t m_claims = 0;              // how many claims they hold
  bool m_split = false;                  // update has run at least once
};

} // namespace engram::claims
