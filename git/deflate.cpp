// Deflate: zlib streams by libdeflate (see deflate.hpp).
#include "git/deflate.hpp"

#include <libdeflate.h>
#include <memory>

namespace engram::git::detail {

namespace {

// git's level for loose objects, the fastest: what a commit writes is
// repacked by `git gc` anyway.
constexpr int k_level = 1;

struct FreeCompressor {
  void operator()(libdeflate_compressor* compressor) const {
    libdeflate_free_compressor(compressor);
  }
};

// One compressor per thread, made once: a compressor is not shared, and
// making one allocates its tables.
libdeflate_compressor* compressor() {
  thread_local const std::unique_ptr<libdeflate_compressor, FreeCompressor> made(
      libdeflate_alloc_compressor(k_level));
  return made.get();
}

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

} // namespace engram::git::detail
