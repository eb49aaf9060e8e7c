// TextHash: hashes strings and string views alike, so that a hashed container
// of strings is searched with a view, without making a string first.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace engram {

struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const {
    return std::hash<std::string_view>{}(text);
  }
};

} // namespace engram
