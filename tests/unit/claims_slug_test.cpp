// Tests of file slugs made from tags and titles.
#include "claims/slug.hpp"

#include <catch2/catch.hpp>

using engram::claims::slug;

TEST_CASE("claims: a slug is lower-case letters, digits and single hyphens") {
  CHECK(slug("Shopify SQLite  Pagination") == "shopify-sqlite-pagination");
  CHECK(slug("--rate_limits!!v2--") == "rate-limits-v2");
  CHECK(slug("path/to\\file.md") == "path-to-file-md");
}

TEST_CASE("claims: accents and other scripts are transliterated") {
  CHECK(slug("Café Über-Größe déjà vu") == "cafe-uber-grosse-deja-vu");
  CHECK(slug("Москва") == "moskva");
}

TEST_CASE("claims: apostrophes vanish instead of splitting words") {
  CHECK(slug("Don't use pip") == "dont-use-pip");
  CHECK(slug("Don\u2019t use pip") == "dont-use-pip");
}

TEST_CASE("claims: a slug is at most 60 characters, cut at a hyphen when one is near") {
  const auto long_slug = slug("Don't use pip on Windows because it is a trap and this title is "
                              "really long enough to need cutting");
  CHECK(long_slug.size() <= 60);
  CHECK(long_slug == "dont-use-pip-on-windows-because-it-is-a-trap-and-this-title");
  CHECK(slug(std::string(100, 'a')) == std::string(60, 'a'));
}

TEST_CASE("claims: a slug is never empty") {
  CHECK(slug("") == "memory");
  CHECK(slug("!!! ???") == "memory");
  CHECK(slug("\U0001F600") == "memory");
}
