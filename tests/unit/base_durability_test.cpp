// Tests of flushing a file system: done for a folder that exists, and a
// reason naming the folder when it cannot be done.
#include "base/durability.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fstream>

TEST_CASE("the file system of a folder is flushed, and a missing folder is named in the reason") {
  const engram::test::TempDir dir;
  { std::ofstream(dir.path() / "written.md") << "- a claim\n"; }
  CHECK_FALSE(engram::sync_file_system(dir.path()));

  const auto missing = dir.path() / "gone";
  const auto failed = engram::sync_file_system(missing);
  REQUIRE(failed);
  CHECK_THAT(*failed, Catch::Contains(missing.string()));
  CHECK_THAT(*failed, Catch::Contains("No such file"));

  // A file is not a folder: refused, not flushed through.
  REQUIRE(engram::sync_file_system(dir.path() / "written.md"));
}
