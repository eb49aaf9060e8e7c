// The names in a claim (see proper_words.hpp).
#include "claims/proper_words.hpp"

#include "claims/normalise.hpp"

#include <cstdint>
#include <unicode/uchar.h>
#include <unicode/utf8.h>

namespace engram::claims::detail {

std::unordered_set<std::string> proper_words(std::string_view text) {
  std::unordered_set<std::string> out;
  bool first = true;
  std::string word;
  bool capital = false;
  bool ascii = true; // ASCII words are lower-cased here; others folded as tokens are
  const auto flush = [&] {
    if (!word.empty() && capital && !first) {
      out.insert(ascii ? word : fold(word, KeepBackticks::no));
    }
    first = first && word.empty();
    word.clear();
    ascii = true;
  };
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  const auto length = static_cast<std::int32_t>(text.size());
  for (std::int32_t i = 0; i < length;) {
    const std::int32_t start = i;
    UChar32 c = 0;
    U8_NEXT(bytes, i, length, c);
    if (c < 0 || u_isalpha(c) == 0) {
      flush();
      continue;
    }
    capital = word.empty() ? u_isupper(c) != 0 : capital;
    if (c < 0x80) {
      word += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    } else {
      word.append(
          text.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(i - start)));
      ascii = false;
    }
  }
  flush();
  return out;
}

} // namespace engram::claims::detail
