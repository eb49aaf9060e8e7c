// MappedFile: a regular file's bytes mapped read-only, for a reader that
// only looks at them. Reading copies the bytes into fresh memory, and every
// fresh page costs a page fault: for the recall index, the copy (with the
// zeroing before it) was a large share of a recall's time (`make bench`,
// scenario 7).
// A mapping shares the page cache's pages, all mapped at once.
//
// The mapping is private and read-only: nothing written through it, and a
// file replaced by a rename (as engram replaces its files) keeps the mapped
// bytes. A file truncated in place while mapped would make reading past its
// new end fault (SIGBUS): map only files that engram alone writes, by rename.
#pragma once

#include "base/regular_file.hpp"

#include <cstddef>
#include <optional>
#include <string_view>

namespace engram {

class MappedFile {
public:
  // Maps all of `file` (an empty file maps to no bytes). nullopt when it is
  // larger than `limit` (errno EFBIG) or cannot be mapped (errno kept).
  static std::optional<MappedFile> map(const RegularFile& file, std::size_t limit);

  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // The mapped bytes; they stay where they are when the MappedFile is moved.
  std::string_view bytes() const { return {static_cast<const char*>(m_start), m_size}; }

private:
  MappedFile(void* start, std::size_t size) : m_start(start), m_size(size) {}
  void* m_start = nullptr;
  std::size_t m_size = 0;
};

} // namespace engram
