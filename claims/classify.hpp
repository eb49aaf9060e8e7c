// Classifying a claim into the layer it belongs to when its episodic memory
// decays (seeds/four-layer-memory.md, "Layer-Selection Decision Tree").
#pragma once

#include "base/text_hash.hpp"

#include <engram/claim.hpp>

#include <string>
#include <string_view>
#include <unordered_map>

namespace engram::claims {

// The kind of a claim, first match wins, as in the seed's decision tree:
//  1. reference: it points to an external place (a URL; "can be found at",
//     "lives in", "refer to"; "is at"/"see" followed by a path or link; a
//     doc, wiki, dashboard or channel named with its path or #channel);
//  2. behavioural: it instructs (always, never, don't, avoid, prefer, must,
//     should, make sure, remember to, use ... instead, or a sentence that
//     starts with an imperative verb: "Run X before Y");
//  3. factual: anything else.
// Words match whole and case-insensitively; keywords inside code are not read
// as instructions. Never returns `solution`: only splitting knows sections.
[[nodiscard]] ClaimKind classify(std::string_view text);

// classify, remembering each text's kind: the sections of a body that is
// edited again and again are split again and again, over the same claims.
class KindMemo {
public:
  // classify(text), decided once per distinct text.
  [[nodiscard]] ClaimKind classify(std::string_view text);

private:
  std::unordered_map<std::string, ClaimKind, TextHash, std::equal_to<>> m_kinds;
};

} // namespace engram::claims
