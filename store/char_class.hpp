// Character classes and runs: the small predicates the secrets scan reads
// text with, ASCII only (every credential shape is ASCII), and the run of
// characters of one class from a position, capped so no line costs n².
#pragma once

#include <cstddef>
#include <string_view>

namespace engram::store::chars {

inline bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
inline bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
inline bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
inline bool is_alnum(char c) {
  return is_lower(c) || is_upper(c) || is_digit(c);
}

// No run is followed further: every shape is decided within it.
inline constexpr std::size_t k_max_run = 256;

// How many characters from `pos` satisfy `pred` (at most k_max_run).
template <typename Pred> std::size_t run_length(std::string_view line, std::size_t pos, Pred pred) {
  std::size_t n = 0;
  while (n < k_max_run && pos + n < line.size() && pred(line[pos + n])) {
    ++n;
  }
  return n;
}

} // namespace engram::store::chars
