// UTF-8 checks and counts over byte strings, through ICU.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace engram {

// The byte offset of the first invalid UTF-8 sequence, or nullopt when valid.
std::optional<std::size_t> first_invalid_utf8(std::string_view bytes);

// The number of code points in valid UTF-8 text (what guards call "chars").
std::size_t count_chars(std::string_view utf8);

// The 1-based line number of a byte offset.
int line_at(std::string_view text, std::size_t offset);

} // namespace engram
