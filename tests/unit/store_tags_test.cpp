// Tests of canonical tags: what must compare equal and what must not.
#include "store/tags.hpp"

#include <catch2/catch.hpp>

using engram::store::canonical_tag;
using engram::store::canonical_tags;
using engram::store::shared_tag_count;

TEST_CASE("agent nouns, gerunds and plurals of one word share a canonical tag") {
  CHECK(canonical_tag("scraper") == canonical_tag("scraping"));
  CHECK(canonical_tag("Scrapers") == canonical_tag("scrape"));
  CHECK(canonical_tag("parser") == canonical_tag("parsing"));
  CHECK(canonical_tag("pagination") == canonical_tag("paginate"));
  CHECK(canonical_tag("tests") == canonical_tag("testing"));
}

TEST_CASE("case, Unicode width and separators do not change a canonical tag") {
  CHECK(canonical_tag("SQLite") == canonical_tag("sqlite"));
  CHECK(canonical_tag("Machine Learning") == canonical_tag("machine-learning"));
  CHECK(canonical_tag("machine_learning") == canonical_tag("machine-learning"));
  CHECK(canonical_tag("Straße") == canonical_tag("strasse"));
  CHECK(canonical_tag("ｓｑｌｉｔｅ") == canonical_tag("sqlite")); // full-width letters
}

TEST_CASE("different words keep different canonical tags") {
  CHECK(canonical_tag("shopify") != canonical_tag("sqlite"));
  CHECK(canonical_tag("user") != canonical_tag("use-case"));
  CHECK(canonical_tag("deploy") != canonical_tag("deployment-freeze"));
  CHECK(canonical_tag("api") != canonical_tag("app"));
}

TEST_CASE("canonical tag lists are sorted, deduplicated and drop empty tags") {
  CHECK(canonical_tags({"Scraping", "scraper", "HTTP", "", "  "}) ==
        std::vector<std::string>{"http", "scrap"});
}

TEST_CASE("shared tag counts compare canonical forms") {
  const auto a = canonical_tags({"scraper", "http", "rate-limits"});
  const auto b = canonical_tags({"scraping", "Rate Limit", "proxies"});
  CHECK(shared_tag_count(a, b) == 2);
  CHECK(shared_tag_count(a, {}) == 0);
}
