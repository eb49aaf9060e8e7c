// Write all: write(2) until the buffer is out (see write_all.hpp).
#include "base/write_all.hpp"

#include <cerrno>
#include <unistd.h>

namespace engram {

bool write_all(int descriptor, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t wrote = ::write(descriptor, bytes.data(), bytes.size());
    if (wrote < 0 && errno == EINTR) {
      continue;
    }
    if (wrote <= 0) {
      if (wrote == 0) {
        errno = EIO; // nothing written and no error: do not loop for ever
      }
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(wrote));
  }
  return true;
}

} // namespace engram
