// Tests of sentence splitting: every hazard of technical prose that must not
// end a sentence, and the breaks that must still happen.
#include "claims/sentence.hpp"
#include "claims/split.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using engram::claims::is_abbreviation;
using engram::claims::split_claims;

namespace {

// The texts of the claims of `body`.
std::vector<std::string> texts(std::string_view body) {
  std::vector<std::string> out;
  for (const auto& claim : split_claims(body)) {
    out.push_back(claim.text);
  }
  return out;
}

} // namespace

TEST_CASE("claims: a paragraph is split into its sentences") {
  CHECK(texts("The cache is warm. The queue is empty. Workers idle.") ==
        std::vector<std::string>{"The cache is warm.", "The queue is empty.", "Workers idle."});
}

TEST_CASE("claims: question and exclamation marks end sentences") {
  CHECK(texts("Is the cache warm? Yes! It was primed at start.") ==
        std::vector<std::string>{"Is the cache warm?", "Yes!", "It was primed at start."});
}

TEST_CASE("claims: common abbreviations do not end a sentence") {
  CHECK(texts("Prefer a typed language, e.g. Python with mypy. Next point.") ==
        std::vector<std::string>{"Prefer a typed language, e.g. Python with mypy.", "Next point."});
  CHECK(texts("Use the default, i.e. Ninja. Next point.") ==
        std::vector<std::string>{"Use the default, i.e. Ninja.", "Next point."});
  CHECK(texts("Dr. Smith and Mr. Jones own the service. Ask them.") ==
        std::vector<std::string>{"Dr. Smith and Mr. Jones own the service.", "Ask them."});
  CHECK(texts("Windows vs. Linux paths differ. Normalise them.") ==
        std::vector<std::string>{"Windows vs. Linux paths differ.", "Normalise them."});
  CHECK(texts("The build takes approx. Twenty minutes on CI. Cache it.") ==
        std::vector<std::string>{"The build takes approx. Twenty minutes on CI.", "Cache it."});
  CHECK(texts("The U.S. Region is slower. Use eu-west.") ==
        std::vector<std::string>{"The U.S. Region is slower.", "Use eu-west."});
}

TEST_CASE("claims: etc. does not end a sentence") {
  CHECK(texts("It reads JSON, YAML, etc. The parser is strict.") ==
        std::vector<std::string>{"It reads JSON, YAML, etc. The parser is strict."});
}

TEST_CASE("claims: abbreviations are recognised by list and by dotted shape") {
  CHECK(is_abbreviation("e.g."));
  CHECK(is_abbreviation("I.E."));
  CHECK(is_abbreviation("U.S."));
  CHECK(is_abbreviation("a.m."));
  CHECK(is_abbreviation("Dr."));
  CHECK(is_abbreviation("approx."));
  CHECK_FALSE(is_abbreviation("done."));
  CHECK_FALSE(is_abbreviation("it."));
  CHECK_FALSE(is_abbreviation("e.g"));
}

TEST_CASE("claims: decimals and versions do not end a sentence") {
  CHECK(texts("Pi is 3.14 in the config. Next.") ==
        std::vector<std::string>{"Pi is 3.14 in the config.", "Next."});
  CHECK(texts("Pin v1.4.2 or 2.3.1 in CI. Next.") ==
        std::vector<std::string>{"Pin v1.4.2 or 2.3.1 in CI.", "Next."});
}

TEST_CASE("claims: a version at the end of a sentence still ends it") {
  CHECK(texts("Upgrade to v1.4.2. Then restart the daemon.") ==
        std::vector<std::string>{"Upgrade to v1.4.2.", "Then restart the daemon."});
}

TEST_CASE("claims: URLs do not end a sentence") {
  CHECK(texts("See https://x.org/a.b?c=d for details. Next.") ==
        std::vector<std::string>{"See https://x.org/a.b?c=d for details.", "Next."});
  CHECK(texts("Open https://example.com/Report.Final!Now today. Next.") ==
        std::vector<std::string>{"Open https://example.com/Report.Final!Now today.", "Next."});
  CHECK(
      texts("The status page is https://status.example.com. It is public.") ==
      std::vector<std::string>{"The status page is https://status.example.com.", "It is public."});
}

TEST_CASE("claims: file names do not end a sentence") {
  CHECK(texts("Edit config.toml and README.Md first. Next.") ==
        std::vector<std::string>{"Edit config.toml and README.Md first.", "Next."});
  CHECK(texts("Settings live in config.toml. Restart after editing.") ==
        std::vector<std::string>{"Settings live in config.toml.", "Restart after editing."});
}

TEST_CASE("claims: inline code does not end a sentence") {
  CHECK(texts("Run `a. B` now. Next.") == std::vector<std::string>{"Run `a. B` now.", "Next."});
  CHECK(texts("Print it with ``echo `x`. Done.`` first. Next.") ==
        std::vector<std::string>{"Print it with ``echo `x`. Done.`` first.", "Next."});
}

TEST_CASE("claims: a sentence wrapped over lines keeps its line breaks") {
  CHECK(texts("The first sentence\nwraps here. The second\nwraps too.") ==
        std::vector<std::string>{"The first sentence\nwraps here.", "The second\nwraps too."});
}

TEST_CASE("claims: a hard line break ends a sentence") {
  CHECK(texts("Port is 8080  \nHost is local") ==
        std::vector<std::string>{"Port is 8080", "Host is local"});
  CHECK(texts("Port is 8080\\\nHost is local") ==
        std::vector<std::string>{"Port is 8080\\", "Host is local"});
}

TEST_CASE("claims: scripts without spaces between sentences are split") {
  CHECK(texts("这是第一句。这是第二句。") ==
        std::vector<std::string>{"这是第一句。", "这是第二句。"});
}

TEST_CASE("claims: emphasis around sentences stays in the source text") {
  CHECK(texts("**Symptom:** the build hangs. *Fix:* clear the cache.") ==
        std::vector<std::string>{"**Symptom:** the build hangs.", "*Fix:* clear the cache."});
}
