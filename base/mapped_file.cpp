// MappedFile: mmap with the pages mapped in one call where the system can
// (Linux's MAP_POPULATE), instead of one fault each.
#include "base/mapped_file.hpp"

#include "base/platform.hpp"

#include <algorithm>
#include <cerrno>
#include <sys/mman.h>
#include <utility>

namespace engram {

std::optional<MappedFile> MappedFile::map(const RegularFile& file, std::size_t limit) {
  const auto size = static_cast<std::size_t>(std::max<off_t>(file.info().st_size, 0));
  if (size > limit) {
    errno = EFBIG;
    return std::nullopt;
  }
  if (size == 0) {
    return MappedFile(); // mmap refuses a length of 0
  }
  void* start =
      ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | platform::populate_flag(), file.fd(), 0);
  if (start == MAP_FAILED) {
    return std::nullopt;
  }
  return MappedFile(start, size);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : m_start(std::exchange(other.m_start, nullptr)), m_size(std::exchange(other.m_size, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    if (m_start != nullptr) {
      ::munmap(m_start, m_size);
    }
    m_start = std::exchange(other.m_start, nullptr);
    m_size = std::exchange(other.m_size, 0);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (m_start != nullptr) {
    ::munmap(m_start, m_size);
  }
}

} // namespace engram
