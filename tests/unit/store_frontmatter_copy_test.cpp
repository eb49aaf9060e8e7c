// Frontmatter copies are values: assigning one never changes another that
// shared its YAML tree (yaml-cpp's Node::operator= writes through), so a
// workspace checkpoint or a sorted list of files keeps every file's own fields.
#include "store/frontmatter.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fmt/format.h>

using engram::store::Frontmatter;

namespace {

// A parsed block `key: value`, which must parse.
Frontmatter block(const std::string& value) {
  auto parsed = Frontmatter::parse("key: " + value + "\ntags: [a, b]\n", 2, "\n");
  REQUIRE(parsed.has_value());
  return std::move(parsed).value();
}

} // namespace

TEST_CASE("assigning a frontmatter leaves a copy of its old value unchanged") {
  Frontmatter a = block("first");
  const Frontmatter copy = a;
  a = block("second");
  CHECK(a.scalar("key") == "second");
  CHECK(copy.scalar("key") == "first");
  Frontmatter b = block("third");
  b = copy;
  CHECK(copy.scalar("key") == "first");
  CHECK(b.scalar("key") == "first");
}

TEST_CASE("an edit of a copy does not reach the original") {
  const Frontmatter original = block("first");
  Frontmatter edited = original;
  edited.set_scalar("key", "changed");
  CHECK(edited.scalar("key") == "changed");
  CHECK(original.scalar("key") == "first");
}

TEST_CASE("sorting many frontmatters keeps each one's own fields") {
  std::vector<std::pair<int, Frontmatter>> items;
  for (int i = 0; i < 100; ++i) {
    const int n = (i * 37) % 100;
    items.emplace_back(n, block(fmt::format("value-{}", n)));
  }
  std::sort(items.begin(), items.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [n, frontmatter] : items) {
    CHECK(frontmatter.scalar("key") == fmt::format("value-{}", n));
    CHECK(frontmatter.list("tags") == std::vector<std::string>{"a", "b"});
  }
}
