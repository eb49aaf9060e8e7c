// RegularFile: a file opened for reading the way engram reads what agents
// wrote: never through a symlink, never blocking on a FIFO, and never more
// than a limit. Checked with fstat on the open descriptor, so a file swapped
// between a stat and the open cannot slip through.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/stat.h>

namespace engram {

// Appends what `fd` (a regular file) holds from its offset to its end to
// `out`, stopping once more than `limit` bytes have come (`limit` below the
// largest std::uintmax_t, which has no byte past it). `expected` is the
// size fstat gave: the read asks for one byte more, and a read that returns
// less than asked once that many bytes are in is the end of the file, so the
// usual last read that returns 0 is not made (one system call a file fewer,
// and a run reads every file of a store). A
// short read before `expected` bytes (the file shrank, or a signal) reads
// on. false when a read fails, with errno preserved.
bool read_to_end(int fd, std::uintmax_t expected, std::uintmax_t limit, std::string& out);

class RegularFile {
public:
  // Why a file could not be opened or read.
  enum class Failure {
    is_link,     // the path is (or became) a symlink: ELOOP under O_NOFOLLOW
    cannot_open, // any other open error; errno is kept
    not_regular, // a folder, a FIFO, a device...
    cannot_read, // read failed; errno is kept
  };

  // Opens `path` read-only, O_NOFOLLOW | O_NONBLOCK, and requires a regular
  // file. nullopt on failure, with why in `failure` and errno preserved.
  static std::optional<RegularFile> open(const std::filesystem::path& path, Failure& failure);

  RegularFile(RegularFile&& other) noexcept;
  RegularFile& operator=(RegularFile&&) = delete;
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;
  ~RegularFile();

  // What fstat said of the open file.
  const struct stat& info() const { return m_info; }

  // The open descriptor (closed with the RegularFile).
  int fd() const { return m_fd; }

  // Reads to the end, stopping once more than `limit` bytes have come (the
  // result is then longer than `limit`: the file grew). nullopt when a read
  // fails, with errno preserved.
  std::optional<std::string> read(std::uintmax_t limit);

private:
  RegularFile(int fd, const struct stat& info) : m_fd(fd), m_info(info) {}
  int m_fd = -1;
  struct stat m_info {};
};

} // namespace engram
