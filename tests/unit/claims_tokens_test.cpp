// Tests of comparison tokens: which words are significant, what is a value,
// and what negates.
#include "claims/tokens.hpp"

#include <catch2/catch.hpp>

using engram::claims::tokens_of;

namespace {

// Whether `list` holds `item`.
bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

} // namespace

TEST_CASE("claims: stopwords are dropped and words are stemmed") {
  const auto tokens = tokens_of("The API is returning the items");
  CHECK(tokens.words == tokens_of("API returns items").words);
  CHECK_FALSE(has(tokens.words, "the"));
}

TEST_CASE("claims: numbers, versions, dates, paths, URLs and quoted values are values") {
  const auto tokens = tokens_of("Pin v1.4.2, 1,000 rows, on 2024-03-01 in /etc/x.conf per "
                                "https://x.org and `make` with \"fast\"");
  CHECK(has(tokens.values, "1.4.2"));
  CHECK(has(tokens.values, "1000"));
  CHECK(has(tokens.values, "2024-03-01"));
  CHECK(has(tokens.values, "/etc/x.conf"));
  CHECK(has(tokens.values, "https://x.org"));
  CHECK(has(tokens.values, "`make`"));
  CHECK(has(tokens.values, "\"fast\""));
  CHECK(tokens_of("Pin 1.4.2").values == tokens_of("Pin v1.4.2").values);
}

TEST_CASE("claims: month and weekday names are values, plural or not") {
  CHECK(tokens_of("Freeze on Fridays").values == tokens_of("Freeze on Friday").values);
  CHECK(has(tokens_of("Released in March").values, "march"));
}

TEST_CASE("claims: negations set the polarity and are not words") {
  CHECK(tokens_of("Tests do not need the network").negated);
  CHECK(tokens_of("Never use tabs").negated);
  CHECK(tokens_of("It is no longer supported").negated);
  CHECK(tokens_of("It doesn\u2019t retry").negated);
  CHECK(tokens_of("Build without the cache").negated);
  CHECK_FALSE(tokens_of("Tests need the network").negated);
  CHECK(tokens_of("It is no longer supported").words == tokens_of("It is supported").words);
}

TEST_CASE("claims: an apostrophe inside a word is not a quote") {
  const auto tokens = tokens_of("Don't use the user's 'legacy' flag");
  CHECK(tokens.values == std::vector<std::string>{"'legacy'"});
}
