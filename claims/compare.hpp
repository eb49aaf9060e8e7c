// Comparing an incoming claim with an existing one: the decision that keeps
// knowledge from being appended twice, and keeps distinct knowledge from
// being dropped as a "duplicate".
#pragma once

#include "claims/tokens.hpp"

#include <engram/claim.hpp>
#include <string>
#include <string_view>

namespace engram::claims {

// How two claims relate, with the evidence.
struct Comparison {
  Relation relation = Relation::distinct; // the verdict
  double score = 0.0; // containment (duplicate) or subject overlap (update), 0 to 1
  std::string reason; // why, in words, for the consolidation record
};

// A claim normalised and tokenised once, for comparing against many others.
struct PreparedClaim {
  std::string normal; // its `normalise`d text
  ClaimTokens tokens; // its comparison tokens
};

// Whether `tokens` say their subject owns, leads, maintains, manages or
// heads something: one holder at a time may, so a claim of the same
// predicate about another subject may update it (see detail::holder_changed).
[[nodiscard]] bool states_holding(const ClaimTokens& tokens);

// Prepares `text` for `compare_claims`.
[[nodiscard]] PreparedClaim prepare(std::string_view text);

// A shorter text that prepare() treats exactly as `text`, or `text` itself:
// `text` without its last line when that line is one HTML comment (a
// superseded marker) and no comment is open above it, else without a leading
// "- " list marker. Normalising reads a comment as a space, and a line of
// spaces adds only whitespace at the end, which folding drops; it strips a
// line's markers before anything else reads it, and the marker can neither
// open nor close a comment or emphasis. So both texts prepare alike, and a
// claim absorbed as a list item, or filed as an update with its marker, is
// prepared once, not again as what the target holds (called again, on the
// shorter text, until it returns its argument).
[[nodiscard]] std::string_view prepared_alike(std::string_view text);

// How `incoming` relates to `existing`:
//  - duplicate: equal after `normalise`; or the incoming claim's significant
//    tokens are contained in the existing one's at `near_threshold` or more,
//    with the same values and the same polarity. Containment is measured on
//    the incoming side, so an incoming claim that adds knowledge (the tail a
//    prefix "dedup" would drop) is never a duplicate.
//  - update: the same subject (at least 3 shared significant words and a
//    Jaccard overlap of 0.8 or more) with a changed value (each side has a
//    number, version, date or quoted value the other lacks) or a flipped
//    polarity (a negation on one side only).
//  - distinct: anything else, including a value only added or only dropped.
// Nothing here looks at prefixes: claims that start alike are compared whole.
[[nodiscard]] Comparison compare_claims(std::string_view incoming, std::string_view existing,
                                        double near_threshold = 0.9);

// `compare_claims` on prepared claims, to compare one claim with many cheaply.
[[nodiscard]] Comparison compare_claims(const PreparedClaim& incoming,
                                        const PreparedClaim& existing, double near_threshold = 0.9);

// How many of `claim`'s tokens a claim it restates may lack beyond what the
// containment threshold allows: words saying only where a thing is, beside
// a value (compare.cpp's k_where_words), names it writes in code spans,
// which the other may write bare, and a change's verb and the words that say
// when it happened, which the other says as a state ("moved to" for "lives
// in"). A claim index widens its search by them.
[[nodiscard]] std::size_t tokens_read_alike(const ClaimTokens& claim);

// The relation of `compare_claims`, without the evidence.
[[nodiscard]] Relation compare(std::string_view incoming, std::string_view existing,
                               double near_threshold = 0.9);

// The relation of `compare_claims` on prepared claims, without the evidence:
// the same verdict, computed without building a reason, for comparing one
// claim with thousands.
[[nodiscard]] Relation relation(const PreparedClaim& incoming, const PreparedClaim& existing,
                                double near_threshold = 0.9);

} // namespace engram::claims
