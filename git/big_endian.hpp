// Big-endian integers, as git's binary formats (the index, packs) store them.
#pragma once

#include <cstdint>
#include <string>

namespace engram::git::detail {

// Appends `value` to `out` as four bytes, most significant first.
inline void put_be32(std::string& out, std::uint32_t value) {
  const char bytes[4] = {static_cast<char>(value >> 24), static_cast<char>(value >> 16),
                         static_cast<char>(value >> 8), static_cast<char>(value)};
  out.append(bytes, sizeof bytes);
}

} // namespace engram::git::detail
