// UTF-8 checks and counts, using ICU's decoding macros so that what counts as
// valid here is exactly what ICU accepts everywhere else.
#include "base/utf8.hpp"

#include <algorithm>
#include <unicode/utf8.h>

namespace engram {

std::optional<std::size_t> first_invalid_utf8(std::string_view bytes) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  const auto length = static_cast<std::int32_t>(bytes.size());
  std::int32_t i = 0;
  while (i < length) {
    const std::int32_t start = i;
    UChar32 c = 0;
    U8_NEXT(data, i, length, c);
    if (c < 0) {
      return static_cast<std::size_t>(start);
    }
  }
  return std::nullopt;
}

std::size_t count_chars(std::string_view utf8) {
  // Continuation bytes are 10xxxxxx; every other byte starts a code point.
  return static_cast<std::size_t>(std::count_if(utf8.begin(), utf8.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

int line_at(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

} // namespace engram
