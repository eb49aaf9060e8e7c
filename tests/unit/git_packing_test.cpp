// Packing (git/packing.cpp): a Repository
// kept open across packings — as the daemon keeps one — still reading every
// object and committing, while loose objects and whole packs it had seen are
// removed under it.
#include "git/packing.hpp"
#include "git/repository.hpp"
#include "lib/shell.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <string>
#include <vector>

using engram::git::loose_objects_if_near;
using engram::git::pack_loose_objects;
using engram::git::Repository;
using engram::test::shell;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

const engram::git::Signature signature{"engram", "engram@test"};

Repository new_repository(const TempDir& dir) {
  auto opened = Repository::init(dir.path());
  REQUIRE(opened.has_value());
  return std::move(opened).value();
}

} // namespace

TEST_CASE("a repository kept open reads and commits across packings that remove what it saw") {
  const TempDir dir;
  Repository repository = new_repository(dir);
  std::vector<std::string> blobs; // every file's blob id so far
  std::size_t merges = 0;
  for (int round = 0; round < 10; ++round) {
    const std::string name = fmt::format("memory-{}.md", round);
    write_file(dir.path() / name, fmt::format("# Round {}\n\n- Claim {} holds.\n", round, round));
    write_file(dir.path() / "MEMORY.md", fmt::format("- {} rounds so far\n", round + 1));
    const auto committed = repository.commit_all(fmt::format("round {}", round), signature);
    INFO(round << ": " << (committed ? std::string() : committed.error().message));
    REQUIRE(committed.has_value());
    const auto id = shell(fmt::format("git -C '{}' rev-parse HEAD:{}", dir.path().string(), name));
    REQUIRE(id.ok);
    blobs.push_back(id.out.substr(0, 40));
    for (const auto& blob : blobs) {
      CHECK(repository.read_blob(blob).has_value()); // seen loose or in a pack, before packing
    }
    const auto packed = pack_loose_objects(dir.path());
    REQUIRE(packed.has_value());
    merges += packed->merged_packs != 0 ? 1 : 0;
  }
  CHECK(merges > 0);
  for (const auto& blob : blobs) {
    CHECK(repository.read_blob(blob).has_value());
  }
  write_file(dir.path() / "MEMORY.md", "- done\n");
  REQUIRE(repository.commit_all("after the packings", signature).has_value());
  const auto fsck =
      shell(fmt::format("git -C '{}' fsck --full --strict 2>&1", dir.path().string()));
  INFO(fsck.out);
  CHECK(fsck.ok);
  const auto log = shell(fmt::format("git -C '{}' log --format=%s", dir.path().string()));
  CHECK(log.out.starts_with("after the packings\nround 9\n"));
}

TEST_CASE("a pack git marks with a .keep is never merged or removed") {
  const TempDir dir;
  Repository repository = new_repository(dir);
  std::filesystem::path kept;
  std::size_t merges = 0;
  for (int round = 0; round < 6; ++round) {
    write_file(dir.path() / fmt::format("memory-{}.md", round),
               fmt::format("# Round {}\n\n- Claim {} holds.\n", round, round));
    REQUIRE(repository.commit_all(fmt::format("round {}", round), signature).has_value());
    const auto packed = pack_loose_objects(dir.path());
    REQUIRE(packed.has_value());
    merges += packed->merged_packs != 0 ? 1 : 0;
    if (round == 0) {
      kept = dir.path() / ".git" / packed->pack;
      REQUIRE(std::filesystem::exists(kept));
      write_file(std::filesystem::path(kept).replace_extension(".keep"), "");
    }
  }
  CHECK(merges > 0); // the others were merged, as packs of about one size are
  CHECK(std::filesystem::exists(kept));
  CHECK(std::filesystem::exists(std::filesystem::path(kept).replace_extension(".idx")));
  const auto fsck =
      shell(fmt::format("git -C '{}' fsck --full --strict 2>&1", dir.path().string()));
  INFO(fsck.out);
  CHECK(fsck.ok);
}

TEST_CASE("loose objects far below the limit are told by a sample, near it counted exactly") {
  const TempDir dir;
  Repository repository = new_repository(dir);
  REQUIRE(shell(fmt::format("cd '{}' && for i in 1 2 3; do echo \"blob $i\" > f$i; done && "
                            "git hash-object -w f1 f2 f3 >/dev/null",
                            dir.path().string()))
              .ok);
  // Three objects: the sample is every folder, so the count is exact at any limit.
  const auto few = loose_objects_if_near(dir.path(), std::uint64_t{1} << 40);
  REQUIRE(few.has_value());
  CHECK(few->count == 3);

  REQUIRE(shell(fmt::format("cd '{}' && for i in $(seq 4 400); do echo \"blob $i\" > f$i; done && "
                            "git hash-object -w f* >/dev/null",
                            dir.path().string()))
              .ok);
  const auto total = shell(
      fmt::format("cd '{}/.git/objects' && find . -type f -path './[0-9a-f][0-9a-f]/*' | wc -l",
                  dir.path().string()));
  REQUIRE(total.ok);
  CHECK(std::stoul(total.out) == 400);
  // Far below: a sample says so. Near or over: every object counted.
  CHECK_FALSE(loose_objects_if_near(dir.path(), std::uint64_t{1} << 40).has_value());
  const auto over = loose_objects_if_near(dir.path(), 1);
  REQUIRE(over.has_value());
  CHECK(over->count == 400);
  const auto at = loose_objects_if_near(dir.path(), over->bytes);
  REQUIRE(at.has_value());
  CHECK(at->bytes == over->bytes);
  CHECK(at->count == 400);
}
