// Tests of normalisation: what two claims may differ in and still be equal.
#include "claims/normalise.hpp"

#include <catch2/catch.hpp>

using engram::claims::fold;
using engram::claims::KeepBackticks;
using engram::claims::normalise;

TEST_CASE("claims: composed and decomposed accents normalise equal") {
  const std::string composed = "Caf\u00e9 opens at nine";    // é as one code point
  const std::string decomposed = "Cafe\u0301 opens at nine"; // e + combining acute
  REQUIRE(composed != decomposed);
  CHECK(normalise(composed) == normalise(decomposed));
  CHECK(normalise(decomposed) == "caf\u00e9 opens at nine");
}

TEST_CASE("claims: case is folded") {
  CHECK(normalise("The API Returns JSON") == "the api returns json");
  CHECK(normalise("STRASSE") == normalise("Straße"));
}

TEST_CASE("claims: line wraps and whitespace runs collapse to single spaces") {
  CHECK(normalise("  The parser\n  is   strict\tabout\r\ntabs  ") ==
        "the parser is strict about tabs");
  CHECK(normalise("no\u00a0break space") == "no break space");
}

TEST_CASE("claims: trailing punctuation is removed") {
  CHECK(normalise("The cache is warm.") == "the cache is warm");
  CHECK(normalise("Is it warm?!") == "is it warm");
  CHECK(normalise("It is warm\u2026") == "it is warm");
  CHECK(normalise("Pinned to 1.4.2.") == "pinned to 1.4.2");
}

TEST_CASE("claims: list markers, task boxes and block-quote markers are removed") {
  CHECK(normalise("- Use tabs") == "use tabs");
  CHECK(normalise("* Use tabs") == "use tabs");
  CHECK(normalise("12. Use tabs") == "use tabs");
  CHECK(normalise("- [ ] Use tabs") == "use tabs");
  CHECK(normalise("- [x] Use tabs") == "use tabs");
  CHECK(normalise("> Use tabs") == "use tabs");
  CHECK(normalise("- Parent\n  - child item") == "parent child item");
}

TEST_CASE("claims: emphasis markers are removed but inner underscores and stars stay") {
  CHECK(normalise("**Always** use _strict_ mode") == "always use strict mode");
  CHECK(normalise("~~old~~ new") == "old new");
  CHECK(normalise("Set max_retries to 2*3") == "set max_retries to 2*3");
  CHECK(normalise("Config is in ~/.config") == "config is in ~/.config");
}

TEST_CASE("claims: inline code backticks and HTML comments are removed") {
  CHECK(normalise("Run `make test` first") == "run make test first");
  CHECK(normalise("Fact <!-- superseded 2024-01-01 --> here") == "fact here");
  CHECK(fold("Run `make`.", KeepBackticks::yes) == "run `make`.");
}

TEST_CASE("claims: typographic quotes normalise to ASCII") {
  CHECK(normalise("Don\u2019t use \u201cquotes\u201d") == normalise("Don't use \"quotes\""));
}

TEST_CASE("claims: a text of only markup normalises to empty") {
  CHECK(normalise("").empty());
  CHECK(normalise("- [ ] ...").empty());
}

TEST_CASE("claims: a normal form normalises to itself, whatever markup one pass uncovers") {
  // Found by fuzz/claims_fuzz.cpp: each of these needed a second pass.
  for (const std::string text : {"-\n  item opening on the next line", "[ ].", "_- x_",
                                 "> - * 1. [x] nested on one line", "The answer is\n42."}) {
    const auto normal = normalise(text);
    INFO(text << " -> " << normal);
    CHECK(normalise(normal) == normal);
  }
  CHECK(normalise("-\n  item opening on the next line") == "item opening on the next line");
  CHECK(normalise("> - * 1. [x] nested on one line") == "nested on one line");
  CHECK(normalise("The answer is\n42.") == "the answer is 42");
}
