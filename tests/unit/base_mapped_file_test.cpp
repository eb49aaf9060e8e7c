// Tests of a file mapped read-only: its bytes as written, none for an empty
// file, a refusal past the limit, and bytes that stay put when the MappedFile
// moves and when the file is replaced by a rename.
#include "base/mapped_file.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <string>

using namespace engram;
namespace fs = std::filesystem;

namespace {

// `path` opened as engram opens files it reads.
RegularFile opened(const fs::path& path) {
  RegularFile::Failure failure{};
  auto file = RegularFile::open(path, failure);
  REQUIRE(file);
  return std::move(*file);
}

} // namespace

TEST_CASE("a mapped file holds the file's bytes, and keeps them when moved") {
  test::TempDir dir;
  std::string content;
  for (int i = 0; i < 5000; ++i) {
    content += "W\tword" + std::to_string(i) + "\t" + std::to_string(i) + ":1\n";
  }
  test::write_file(dir / "index", content);
  auto mapped = MappedFile::map(opened(dir / "index"), content.size());
  REQUIRE(mapped);
  CHECK(mapped->bytes() == content);
  const auto* where = mapped->bytes().data();
  MappedFile moved = std::move(*mapped);
  CHECK(mapped->bytes().empty());
  CHECK(moved.bytes().data() == where);
  CHECK(moved.bytes() == content);
  MappedFile assigned;
  assigned = std::move(moved);
  CHECK(assigned.bytes() == content);
}

TEST_CASE("an empty file maps to no bytes, and one past the limit is refused") {
  test::TempDir dir;
  test::write_file(dir / "empty", "");
  const auto empty = MappedFile::map(opened(dir / "empty"), 10);
  REQUIRE(empty);
  CHECK(empty->bytes().empty());

  test::write_file(dir / "eleven", "01234567890");
  errno = 0;
  CHECK(!MappedFile::map(opened(dir / "eleven"), 10));
  CHECK(errno == EFBIG);
  const auto exact = MappedFile::map(opened(dir / "eleven"), 11);
  REQUIRE(exact);
  CHECK(exact->bytes() == "01234567890");
}

TEST_CASE("a file replaced by a rename leaves the mapped bytes as they were") {
  test::TempDir dir;
  test::write_file(dir / "index", "the old bytes\n");
  const auto mapped = MappedFile::map(opened(dir / "index"), 1024);
  REQUIRE(mapped);
  test::write_file(dir / "index.new", "the new bytes, longer than the old\n");
  fs::rename(dir / "index.new", dir / "index");
  CHECK(mapped->bytes() == "the old bytes\n");
  CHECK(test::read_file(dir / "index") == "the new bytes, longer than the old\n");
}
