// Splitting a memory body into claims: the units in which knowledge moves
// when an episodic memory decays.
#pragma once

#include <engram/claim.hpp>
#include <string_view>
#include <vector>

namespace engram::claims {

// The claims of a Markdown body, in source order, each with its exact source
// text (one contiguous range of `body`; a block quote's claims start after its
// `>`), the headings above it, its kind and its 1-based line. A list item
// (nested lists included) is one claim, a paragraph one claim per sentence, a
// table one claim; a code block joins the claim before it; a `## Solution:`
// section is one claim; headings are context and HTML comments are dropped.
// Source text no rule above accounts for becomes a claim of its own, so
// splitting never loses words.
[[nodiscard]] std::vector<Claim> split_claims(std::string_view body);

} // namespace engram::claims
