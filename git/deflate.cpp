// Deflate: zlib streams by libdeflate (see deflate.hpp).
#include "git/deflate.hpp"

#include <algorithm>
#include <cstdint>
#include <libdeflate.h>
#include <memory>

namespace engram::git::detail {

namespace {

// git's level for loose objects, the fastest: what a commit writes is
// repacked by `git gc` anyway.
constexpr int k_fast = 1;

struct FreeCompressor {
  void operator()(libdeflate_compressor* compressor) const {
    libdeflate_free_compressor(compressor);
  }
};

// One compressor per thread, made once: a compressor is not shared, and
// making one allocates its tables.
libdeflate_compressor* compressor() {
  thread_local const std::unique_ptr<libdeflate_compressor, FreeCompressor> made(
      libdeflate_alloc_compressor(k_fast));
  return made.get();
}

// RFC 1950: deflate with a 32 KiB window, the fastest level, and the check
// bits that make the two bytes a multiple of 31.
constexpr char k_zlib_header[] = {0x78, 0x01};
// RFC 1951: a stored block holds at most this many bytes.
constexpr std::size_t k_stored_block = 65535;

} // namespace

bool put_deflated(std::string& out, std::string_view bytes) {
  libdeflate_compressor* with = compressor();
  if (with == nullptr) {
    return false;
  }
  const std::size_t start = out.size();
  out.resize(start + libdeflate_zlib_compress_bound(with, bytes.size()));
  const std::size_t size =
      libdeflate_zlib_compress(with, bytes.data(), bytes.size(), out.data() + start, out.size() - start);
  out.resize(start + size); // 0: it did not fit, which the bound rules out
  return size != 0;
}

void put_stored(std::string& out, std::initializer_list<std::string_view> parts) {
  std::size_t total = 0;
  for (const auto part : parts) {
    total += part.size();
  }
  const std::size_t blocks = std::max<std::size_t>(1, (total + k_stored_block - 1) / k_stored_block);
  out.reserve(out.size() + sizeof k_zlib_header + blocks * 5 + total + 4);
  out.append(k_zlib_header, sizeof k_zlib_header);
  std::uint32_t adler = 1;
  auto part = parts.begin();
  std::size_t at = 0; // in *part
  std::size_t left = total;
  do {
    // Each block: BFINAL (and BTYPE 00, stored) in a byte of its own, then
    // its length and the length's complement, little-endian.
    const auto length = static_cast<std::uint16_t>(std::min(left, k_stored_block));
    left -= length;
    const auto complement = static_cast<std::uint16_t>(~length);
    const char head[5] = {static_cast<char>(left == 0 ? 1 : 0), static_cast<char>(length & 0xff),
                          static_cast<char>(length >> 8), static_cast<char>(complement & 0xff),
                          static_cast<char>(complement >> 8)};
    out.append(head, sizeof head);
    for (std::size_t need = length; need != 0;) {
      if (at == part->size()) {
        ++part;
        at = 0;
        continue;
      }
      const std::size_t take = std::min(need, part->size() - at);
      out.append(part->data() + at, take);
      adler = libdeflate_adler32(adler, part->data() + at, take);
      at += take;
      need -= take;
    }
  } while (left != 0);
  const char check[4] = {static_cast<char>(adler >> 24), static_cast<char>(adler >> 16),
                         static_cast<char>(adler >> 8), static_cast<char>(adler)};
  out.append(check, sizeof check);
}

} // namespace engram::git::detail
