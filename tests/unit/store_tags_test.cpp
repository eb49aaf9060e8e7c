// Tests of canonical tags: what must compare equal and what must not.
#include "store/tags.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

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

TEST_CASE("remembered stems give what stemming gives, past the bound and after forgetting") {
  // 70,000 distinct words, four times the slots a thread remembers stems in,
  // so words take each other's slots; asked again, remembered or not, and on
  // a thread that remembers none, every answer is the first one.
  std::vector<std::string> words;
  for (int i = 0; i < 70'000; ++i) {
    std::string word;
    for (int n = i; n > 0 || word.empty(); n /= 26) {
      word += static_cast<char>('a' + n % 26);
    }
    words.push_back(word + (i % 3 == 0 ? "ing" : i % 3 == 1 ? "ers" : "s"));
  }
  std::vector<std::string> first;
  first.reserve(words.size());
  for (const auto& word : words) {
    first.push_back(canonical_tag(word));
  }
  for (std::size_t i = words.size(); i-- > 0;) { // many of the last ones are remembered
    REQUIRE(canonical_tag(words[i]) == first[i]);
  }
  engram::store::forget_stems();
  for (std::size_t i = 0; i < words.size(); i += 7) {
    REQUIRE(canonical_tag(words[i]) == first[i]);
  }
  std::vector<std::string> elsewhere(words.size());
  std::thread other([&] {
    for (std::size_t i = 0; i < words.size(); i += 5) {
      elsewhere[i] = canonical_tag(words[i]);
    }
  });
  other.join();
  for (std::size_t i = 0; i < words.size(); i += 5) {
    REQUIRE(elsewhere[i] == first[i]);
  }
  CHECK(canonical_tag("scrapers") == canonical_tag("scraping"));
  // Words longer than a slot holds are stemmed every time, alike.
  const std::string long_word = "antidisestablishmentarianisms";
  CHECK(canonical_tag(long_word) == canonical_tag(long_word));
  CHECK(canonical_tag(long_word) == canonical_tag("antidisestablishmentarianism"));
}
