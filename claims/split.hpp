// Splitting a memory body into claims: the units in which knowledge moves
// when an episodic memory decays.
#pragma once

#include "claims/classify.hpp"

#include <cstddef>
#include <engram/claim.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace engram::claims {

// The claims of a Markdown body, in source order, each with its exact source
// text (one contiguous range of `body`; a block quote's claims start after its
// `>`), the headings above it, its kind and its 1-based line. A list item
// (nested lists included) is one claim, a paragraph one claim per sentence, a
// table one claim; a code block joins the claim before it; a `## Solution:`
// section is one claim; headings are context and HTML comments are dropped.
// Source text no rule above accounts for becomes a claim of its own, so
// splitting never loses words. The body is parsed section by section (see
// section_starts), which by CommonMark is the same as parsing it whole; it
// keeps the claims of a long body the same whether it is split whole or kept
// section by section as it is edited (ClaimSections). `memo`, when given,
// classifies the claims, deciding each distinct text once.
[[nodiscard]] std::vector<Claim> split_claims(std::string_view body, KindMemo* memo = nullptr);

// split_claims with the body parsed as one Markdown document. The same
// claims but for md4c's own corner cases (its list nesting can depend on
// blocks far above); for tests.
[[nodiscard]] std::vector<Claim> split_whole(std::string_view body, KindMemo* memo = nullptr);

// The headings in force at a point of a body, outermost first: level and text.
using HeadingStack = std::vector<std::pair<int, std::string>>;

// Where a body can be cut into sections that split on their own: offset 0,
// the start of each level-1 or level-2 ATX heading line (`# `, `## ` at
// column 0), and of each bullet list item at column 0 (`- `, `* `, `+ `),
// wherever no fence, HTML block, table or `Solution:` section could reach
// across. Conservative: a body with anything whose reach a line scan cannot
// bound (link reference definitions, setext level-1 headings, indented
// fences, raw HTML blocks, lone CRs) is cut less or not at all.
[[nodiscard]] std::vector<std::size_t> section_starts(std::string_view body);

// section_starts of an edited body, said against the old body's starts so
// that a long body's thousands of cuts are neither copied nor moved: the
// first `kept` old starts, then `found`, then the old starts from `tail` on,
// each `moved` bytes further.
struct EditedStarts {
  std::size_t kept = 0;
  std::vector<std::size_t> found;
  std::size_t tail = 0; // an index of the old starts; their count when none follow
  std::ptrdiff_t moved = 0;

  // How many starts the edited body has.
  [[nodiscard]] std::size_t size(std::span<const std::size_t> old_starts) const {
    return kept + found.size() + (old_starts.size() - tail);
  }
  // Its start number `k`.
  [[nodiscard]] std::size_t at(std::span<const std::size_t> old_starts, std::size_t k) const {
    if (k < kept) {
      return old_starts[k];
    }
    if (k - kept < found.size()) {
      return found[k - kept];
    }
    const auto old = old_starts[tail + (k - kept - found.size())];
    return static_cast<std::size_t>(static_cast<std::ptrdiff_t>(old) + moved);
  }
  // All of them, as section_starts gives them.
  [[nodiscard]] std::vector<std::size_t> all(std::span<const std::size_t> old_starts) const;
};

// section_starts of `body`, an edit of `old_body` (whose section_starts are
// `old_starts`) that kept its first `prefix` and last `suffix` bytes: cuts
// before the edit are kept, and the scan stops once past the edit it meets a
// cut the old body had. The result, all(old_starts), equals section_starts(body).
[[nodiscard]] EditedStarts section_starts_after_edit(std::string_view body,
                                                     std::string_view old_body,
                                                     std::span<const std::size_t> old_starts,
                                                     std::size_t prefix, std::size_t suffix);

// The claims of one section (a range of a body between two of its
// section_starts), with lines counted from the section's start, given the
// headings in force before it; `out`, when given, receives the headings in
// force at its end. Splitting every section of a body this way, in order,
// passing each one's `out` to the next, gives split_claims of the whole body.
// `memo`, when given, classifies the claims (remembering each text's kind).
// With Kinds::solutions_only, only a `Solution:` section's claim gets its kind
// (solution); every other claim is left `factual`, for the caller to classify
// when it needs to (classifying is most of the cost of splitting).
enum class Kinds { all, solutions_only };
[[nodiscard]] std::vector<Claim> split_section(std::string_view section, const HeadingStack& in,
                                               HeadingStack* out, KindMemo* memo = nullptr,
                                               Kinds kinds = Kinds::all);

} // namespace engram::claims
