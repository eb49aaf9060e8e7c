// Big-endian integers, as git's binary formats (the index, packs) store them.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace engram::git::detail {

// Appends `value` to `out` as four bytes, most significant first.
inline void put_be32(std::string& out, std::uint32_t value) {
  const char bytes[4] = {static_cast<char>(value >> 24), static_cast<char>(value >> 16),
                         static_cast<char>(value >> 8), static_cast<char>(value)};
  out.append(bytes, sizeof bytes);
}

// Stores `value` at `at` as four bytes, most significant first.
inline void store_be32(char* at, std::uint32_t value) {
  const std::uint32_t big = __builtin_bswap32(value);
  std::memcpy(at, &big, sizeof big);
}

} // namespace engram::git::detail
