// Language: how engram reads claims and names, answered by the host so that a
// rule splits, classifies and compares exactly as the host's claim index does.
// Part of the plugin SDK; an abstract interface, so a plugin links nothing.
#pragma once

#include "engram/claim.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace engram {

// The language services a rule reaches through StoreView::language(). Since
// SDK 1.0; a later 1.x may only append virtuals at the end.
class Language {
public:
  virtual ~Language() = default;

  // Splits a Markdown body into claims.
  virtual std::vector<Claim> claims(std::string_view body) const = 0;

  // Classifies a claim's text.
  virtual ClaimKind classify(std::string_view text) const = 0;

  // How an incoming claim relates to an existing one.
  virtual Relation compare(std::string_view incoming, std::string_view existing) const = 0;

  // A claim's text normalised for comparison.
  virtual std::string normalise(std::string_view text) const = 0;

  // A tag's canonical form (case-folded, stemmed).
  virtual std::string canonical_tag(std::string_view tag) const = 0;

  // A safe file-name slug ([a-z0-9-]) for a text.
  virtual std::string slug(std::string_view text) const = 0;
};

// Claims with kinds as `detail` asks: unclassified, every kind is factual but
// a `Solution:` section's.
inline std::vector<Claim> with_detail(std::vector<Claim> claims, ClaimDetail detail) {
  if (detail == ClaimDetail::unclassified) {
    for (auto& claim : claims) {
      claim.kind = claim.kind == ClaimKind::solution ? ClaimKind::solution : ClaimKind::factual;
    }
  }
  return claims;
}

} // namespace engram
