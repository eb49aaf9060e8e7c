// Tests of RegularFile and read_to_end: a file is read whole, with its limit,
// whatever fstat said of its size, and what is not a regular file is refused.
#include "base/regular_file.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

using engram::read_to_end;
using engram::RegularFile;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

// `size` bytes that differ from one offset to the next.
std::string bytes_of(std::size_t size) {
  std::string bytes(size, '\0');
  for (std::size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<char>('a' + (i * 7 + i / 251) % 26);
  }
  return bytes;
}

} // namespace

TEST_CASE("read_to_end reads a file whole whatever size it was told to expect") {
  const TempDir dir;
  constexpr auto k_no_limit = std::numeric_limits<std::uintmax_t>::max() - 1;
  for (const std::size_t size : {0UL, 1UL, 100UL, 65535UL, 65536UL, 65537UL, 300000UL}) {
    const auto path = dir / ("f" + std::to_string(size));
    write_file(path, bytes_of(size));
    for (const std::uintmax_t expected : {std::uintmax_t{0}, std::uintmax_t{size},
                                          std::uintmax_t{size / 2}, std::uintmax_t{size + 10}}) {
      INFO("size " << size << ", expected " << expected);
      const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      REQUIRE(fd >= 0);
      std::string out = "kept:";
      CHECK(read_to_end(fd, expected, k_no_limit, out));
      CHECK(out == "kept:" + bytes_of(size));
      ::close(fd);
    }
  }
}

TEST_CASE("read_to_end stops once past its limit, one byte over") {
  const TempDir dir;
  write_file(dir / "big", bytes_of(100000));
  for (const std::uintmax_t expected : {std::uintmax_t{0}, std::uintmax_t{100000}}) {
    const int fd = ::open((dir / "big").c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    std::string out;
    CHECK(read_to_end(fd, expected, 1000, out));
    CHECK(out.size() > 1000);
    CHECK(out == bytes_of(100000).substr(0, out.size()));
    ::close(fd);
  }
}

TEST_CASE("read_to_end reads what a file grew by after its size was taken") {
  const TempDir dir;
  const auto path = dir / "growing";
  write_file(path, bytes_of(10));
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  struct stat info {};
  REQUIRE(::fstat(fd, &info) == 0);
  write_file(path, bytes_of(70000)); // same inode, rewritten longer
  std::string out;
  CHECK(read_to_end(fd, static_cast<std::uintmax_t>(info.st_size), 1 << 20, out));
  CHECK(out == bytes_of(70000));
  ::close(fd);
}

TEST_CASE("RegularFile reads a regular file and refuses links and folders") {
  const TempDir dir;
  write_file(dir / "note.md", "a note\n");
  RegularFile::Failure failure{};
  auto file = RegularFile::open(dir / "note.md", failure);
  REQUIRE(file.has_value());
  CHECK(file->read(100) == std::optional<std::string>("a note\n"));
  REQUIRE(::symlink((dir / "note.md").c_str(), (dir / "link.md").c_str()) == 0);
  CHECK_FALSE(RegularFile::open(dir / "link.md", failure).has_value());
  CHECK(failure == RegularFile::Failure::is_link);
  CHECK_FALSE(RegularFile::open(dir.path(), failure).has_value());
  CHECK(failure == RegularFile::Failure::not_regular);
}
