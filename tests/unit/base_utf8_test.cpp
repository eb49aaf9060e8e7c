// Tests of UTF-8 validation and counting.
#include "base/utf8.hpp"

#include <catch2/catch.hpp>

using namespace engram;

TEST_CASE("valid UTF-8 has no invalid offset") {
  CHECK_FALSE(first_invalid_utf8("plain ascii"));
  CHECK_FALSE(first_invalid_utf8("café 東京 🎉"));
  CHECK_FALSE(first_invalid_utf8(""));
}

TEST_CASE("the first invalid byte is located exactly") {
  CHECK(first_invalid_utf8("ab\xff") == 2u);
  CHECK(first_invalid_utf8("ok\xC3") == 2u);          // truncated sequence
  CHECK(first_invalid_utf8("x\xC0\xAFy") == 1u);      // overlong encoding
  CHECK(first_invalid_utf8("\xED\xA0\x80") == 0u);    // a UTF-16 surrogate
}

TEST_CASE("chars count code points, not bytes") {
  CHECK(count_chars("abc") == 3);
  CHECK(count_chars("café") == 4);
  CHECK(count_chars("🎉🎉") == 2);
}

TEST_CASE("line_at counts newlines before an offset") {
  CHECK(line_at("a\nb\nc", 0) == 1);
  CHECK(line_at("a\nb\nc", 2) == 2);
  CHECK(line_at("a\nb\nc", 4) == 3);
  CHECK(line_at("a\nb", 100) == 2);
}
