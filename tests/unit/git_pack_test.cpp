// Packs (git/pack.cpp): many blobs stored at once go into one pack that git
// itself reads and finds sound, with the ids git gives them; a few go loose,
// and so does any batch once the object database holds enough packs.
#include "git/pack.hpp"
#include "git/repository.hpp"
#include "lib/shell.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <map>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace fs = std::filesystem;
using engram::git::Repository;
using engram::git::detail::k_most_packs;
using engram::git::detail::k_pack_at;
using engram::test::shell;
using engram::test::TempDir;

namespace {

// `git count-objects -v` of the repository in `dir`, as its keys and values.
std::map<std::string, std::string> count_objects(const TempDir& dir) {
  const auto counted = shell(fmt::format("git -C '{}' count-objects -v", dir.path().string()));
  REQUIRE(counted.ok);
  std::map<std::string, std::string> values;
  std::size_t at = 0;
  while (at < counted.out.size()) {
    const auto end = counted.out.find('\n', at);
    const auto line = counted.out.substr(at, end - at);
    if (const auto colon = line.find(": "); colon != std::string::npos) {
      values[line.substr(0, colon)] = line.substr(colon + 2);
    }
    at = end == std::string::npos ? counted.out.size() : end + 1;
  }
  return values;
}

Repository make_repository(const TempDir& dir) {
  auto repository = Repository::init(dir.path());
  REQUIRE(repository.has_value());
  return std::move(repository).value();
}

// `count` distinct contents, the n-th starting with `prefix` and n.
std::vector<std::string> contents(std::size_t count, const std::string& prefix) {
  std::vector<std::string> out;
  for (std::size_t n = 0; n < count; ++n) {
    out.push_back(fmt::format("{} {}\n- a claim of memory {}.\n", prefix, n, n));
  }
  return out;
}

std::vector<std::string_view> views(const std::vector<std::string>& blobs) {
  return {blobs.begin(), blobs.end()};
}

} // namespace

TEST_CASE("many blobs go into one pack that git reads back byte for byte and finds sound") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  auto blobs = contents(k_pack_at + 20, "# memory");
  blobs.emplace_back("");                         // empty
  blobs.emplace_back(std::string("a\0b\r\n", 5)); // not text
  std::string large;
  for (int i = 0; large.size() < (1U << 20); ++i) {
    large += fmt::format("- line {} of a long procedural file.\n", i);
  }
  blobs.push_back(large);
  blobs.push_back(blobs[3]); // the same bytes twice: one object, two ids alike

  const auto ids = repository.write_blobs(views(blobs));
  INFO((ids ? std::string() : ids.error().message));
  REQUIRE(ids.has_value());
  REQUIRE(ids->size() == blobs.size());
  CHECK(ids->back() == (*ids)[3]);

  const auto objects = count_objects(dir);
  CHECK(objects.at("count") == "0"); // nothing loose
  CHECK(objects.at("packs") == "1");
  for (std::size_t i = 0; i < blobs.size(); ++i) {
    INFO("blob " << i);
    // The id is git's own for those bytes, and the pack holds them.
    const fs::path file = dir / fmt::format("blob-{}", i);
    engram::test::write_file(file, blobs[i]);
    const auto hashed = shell(fmt::format("git hash-object '{}'", file.string()));
    REQUIRE(hashed.ok);
    CHECK(hashed.out == (*ids)[i] + "\n");
    fs::remove(file);
    if (i % 17 == 0 || blobs[i].size() > 1000) {
      const auto read =
          shell(fmt::format("git -C '{}' cat-file blob {}", dir.path().string(), (*ids)[i]));
      REQUIRE(read.ok);
      CHECK(read.out == blobs[i]);
    }
    CHECK(repository.read_blob((*ids)[i]) == blobs[i]);
  }
  const auto fsck = shell(fmt::format("git -C '{}' fsck --full --strict", dir.path().string()));
  INFO(fsck.out);
  CHECK(fsck.ok);
}

TEST_CASE("a few blobs are written loose") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  const auto blobs = contents(k_pack_at - 1, "# small");
  const auto ids = repository.write_blobs(views(blobs));
  REQUIRE(ids.has_value());
  const auto objects = count_objects(dir);
  CHECK(objects.at("count") == std::to_string(blobs.size()));
  CHECK(objects.at("packs") == "0");
  CHECK(repository.read_blob(ids->front()) == blobs.front());
}

TEST_CASE("once the object database holds its most packs, even many blobs are written loose") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  for (std::size_t pack = 0; pack < k_most_packs; ++pack) {
    REQUIRE(repository.write_blobs(views(contents(k_pack_at, fmt::format("# pack {}", pack))))
                .has_value());
  }
  CHECK(count_objects(dir).at("packs") == std::to_string(k_most_packs));
  const auto blobs = contents(k_pack_at, "# past the limit");
  const auto ids = repository.write_blobs(views(blobs));
  REQUIRE(ids.has_value());
  const auto objects = count_objects(dir);
  CHECK(objects.at("packs") == std::to_string(k_most_packs));
  CHECK(objects.at("count") == std::to_string(k_pack_at));
  CHECK(repository.read_blob(ids->back()) == blobs.back());
}
