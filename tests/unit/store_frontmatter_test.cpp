// Frontmatter that would cost the parser or its reader without bound is
// refused before a tree is built: aliases (a "billion laughs" block expands
// exponentially in whatever walks it) and nesting deeper than 16 levels.
#include "store/frontmatter.hpp"
#include "store/memory_file.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <string>

using engram::store::Frontmatter;
using engram::store::MemoryFile;

namespace {

// `key:` holding `depth` flow lists one inside another: the block nests depth + 1 deep.
std::string nested_flow(int depth) {
  return "key: " + std::string(static_cast<std::size_t>(depth), '[') +
         std::string(static_cast<std::size_t>(depth), ']') + "\n";
}

// A block map nested `depth` levels under `key:`, one level per line.
std::string nested_block(int depth) {
  std::string text = "key:\n";
  for (int i = 1; i <= depth; ++i) {
    text += std::string(static_cast<std::size_t>(2 * i), ' ') + fmt::format("level{}:\n", i);
  }
  return text;
}

// The classic "billion laughs": ten aliases of ten aliases of ... a word.
std::string billion_laughs() {
  std::string text = "type: semantic\nl0: &l0 lol\n";
  for (int level = 1; level <= 9; ++level) {
    text += fmt::format("l{}: &l{} [", level, level);
    for (int i = 0; i < 10; ++i) {
      text += fmt::format("{}*l{}", i == 0 ? "" : ", ", level - 1);
    }
    text += "]\n";
  }
  return text;
}

} // namespace

TEST_CASE("an alias in frontmatter is refused at its line") {
  const auto parsed = Frontmatter::parse("type: semantic\nbase: &b value\ncopy: *b\n", 2, "\n");
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().line == 4); // block line 3 after the opening fence
  CHECK_THAT(parsed.error().reason, Catch::Contains("aliases (*name) are not accepted"));
}

TEST_CASE("an anchor without an alias is accepted") {
  const auto parsed = Frontmatter::parse("type: semantic\nbase: &b value\n", 2, "\n");
  REQUIRE(parsed);
  CHECK(parsed->scalar("base") == "value");
}

TEST_CASE("a billion-laughs block is refused at its first alias, without expanding it") {
  const auto parsed = Frontmatter::parse(billion_laughs(), 2, "\n");
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().line == 4); // `l1: &l1 [*l0, ...]`
  CHECK_THAT(parsed.error().reason, Catch::Contains("aliases"));
}

TEST_CASE("a merge key through an alias is refused") {
  const auto parsed =
      Frontmatter::parse("defaults: &d\n  salience: high\nmine:\n  <<: *d\n", 2, "\n");
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().line == 5);
}

TEST_CASE("frontmatter nests at most 16 levels deep, in flow and in block style") {
  // The block's own mapping is level 1.
  CHECK(Frontmatter::parse(nested_flow(15), 2, "\n"));
  const auto flow = Frontmatter::parse(nested_flow(16), 2, "\n");
  REQUIRE_FALSE(flow);
  CHECK(flow.error().line == 2);
  CHECK_THAT(flow.error().reason, Catch::Contains("nested deeper than 16 levels"));

  CHECK(Frontmatter::parse(nested_block(15), 2, "\n")); // key's map is level 2, level15's 16
  const auto block = Frontmatter::parse(nested_block(16), 2, "\n");
  REQUIRE_FALSE(block);
  CHECK_THAT(block.error().reason, Catch::Contains("nested deeper than 16 levels"));
}

TEST_CASE("nesting a hundred thousand levels deep is refused without exhausting the stack") {
  const auto parsed = Frontmatter::parse(nested_flow(100000), 2, "\n");
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().line == 2);
  CHECK_THAT(parsed.error().reason, Catch::Contains("nested deeper"));
}

TEST_CASE("a memory file with an alias or deep nesting is an error at its line") {
  const auto alias =
      MemoryFile::parse("semantic/laughs.md", "---\n" + billion_laughs() + "---\nBody.\n");
  REQUIRE_FALSE(alias);
  CHECK(alias.error().to_string().starts_with("semantic/laughs.md:4: "));
  const auto deep =
      MemoryFile::parse("semantic/deep.md", "---\ntype: semantic\n" + nested_flow(40) + "---\n");
  REQUIRE_FALSE(deep);
  CHECK(deep.error().to_string().starts_with("semantic/deep.md:3: "));
}
