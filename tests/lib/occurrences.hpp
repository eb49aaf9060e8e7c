// Counting a text's occurrences in another: how tests check that something
// was written once, not twice, and not lost.
#pragma once

#include <cstddef>
#include <string>

namespace engram::test {

// How many times `part` occurs in `text` (overlapping occurrences count).
inline std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

} // namespace engram::test
