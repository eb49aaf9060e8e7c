// Claims as one comparable text, for tests that check two ways of splitting
// a body give the same claims: everything a rule reads of each.
#pragma once

#include <engram/claim.hpp>
#include <string>
#include <vector>

namespace engram::test {

inline std::string dump(const std::vector<Claim>& claims) {
  std::string out;
  for (const auto& claim : claims) {
    out += std::to_string(claim.line) + "|" + std::to_string(static_cast<int>(claim.kind)) + "|" +
           claim.context + "|" + claim.title + "|" + claim.text + "\n---\n";
  }
  return out;
}

} // namespace engram::test
