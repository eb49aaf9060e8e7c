// A property of claim splitting over generated bodies: the claims, in order,
// are disjoint pieces of the body, and together they hold every character
// that is not whitespace, a heading, a block-quote marker or an HTML comment.
// This is the "no claim is lost" promise at the level of the splitter.
#include "claims/split.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

using engram::claims::split_claims;

namespace {

// Sentences that carry each splitting hazard.
const std::vector<std::string> k_sentences = {
    "The cache is warm.",
    "Use e.g. Python here.",
    "Pin v1.4.2 now.",
    "See https://x.org/a.b?c=d today.",
    "Run `a. b` first.",
    "Edit config.toml before start.",
    "Pi is 3.14 exactly.",
    "Dr. Smith owns it.",
    "The U.S. team agrees.",
    "Is it done?",
    "Yes!",
    "Café naïve résumé.",
    "这是一句。",
    "**Bold** claim here.",
    "Tabs vs. spaces matter.",
    "Never commit secrets.",
    "Version 2.3.1 is out.",
    "It reads JSON, YAML, etc. and more.",
};

// A body generator driven by one seed.
class Generator {
public:
  // A generator whose output is fixed by `seed`.
  explicit Generator(unsigned seed) : m_random(seed) {}

  // A body of several random blocks separated by blank lines.
  std::string body() {
    std::string out;
    const auto blocks = pick(2, 9);
    for (int i = 0; i < blocks; ++i) {
      out += block();
      out += "\n\n";
    }
    return out;
  }

private:
  // A number in [low, high].
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(m_random); }

  // One random sentence.
  const std::string& sentence() {
    return k_sentences[static_cast<std::size_t>(pick(0, static_cast<int>(k_sentences.size()) - 1))];
  }

  // Sentences joined by spaces or line wraps, each line starting with `prefix`.
  std::string sentences(int count, const std::string& prefix) {
    std::string out = prefix;
    for (int i = 0; i < count; ++i) {
      if (i > 0) {
        out += pick(0, 2) == 0 ? "\n" + prefix : " ";
      }
      out += sentence();
    }
    return out;
  }

  // One random block.
  std::string block() {
    switch (pick(0, 7)) {
    case 0:
      return std::string(static_cast<std::size_t>(pick(1, 3)), '#') + " Heading " +
             std::to_string(pick(1, 99));
    case 1:
      return list();
    case 2:
      return "```sh\nmake -j2\n" + std::string(pick(0, 1) == 0 ? "\n" : "") + "make test\n```";
    case 3:
      return sentences(pick(1, 3), "> ");
    case 4:
      return "| key | value |\n|-----|-------|\n| port | 8080 |";
    case 5:
      return "<!-- superseded 2024-01-01: previously \"x\" -->";
    default:
      return sentences(pick(1, 4), "");
    }
  }

  // A list whose items may wrap, nest and carry task boxes.
  std::string list() {
    std::string out;
    const auto items = pick(1, 4);
    for (int i = 0; i < items; ++i) {
      const std::string markers[] = {"- ", "* ", "1. ", "- [ ] ", "- [x] "};
      out += markers[pick(0, 4)] + sentence();
      if (pick(0, 2) == 0) {
        out += "\n  wrapped continuation words";
      }
      if (pick(0, 2) == 0) {
        out += "\n  - nested " + sentence();
      }
      out += "\n";
    }
    out.pop_back();
    return out;
  }

  std::mt19937 m_random; // the seeded source of choices
};

// Whether the character at `offset` may be left out of every claim.
bool may_be_uncovered(const std::string& body, std::size_t offset) {
  const auto line_begin = body.rfind('\n', offset == 0 ? 0 : offset - 1);
  const auto begin = line_begin == std::string::npos || offset == 0 ? 0 : line_begin + 1;
  if (body[begin] == '#') {
    return true; // a heading line
  }
  if (body[offset] == '>') {
    return true; // a block-quote marker
  }
  const auto open = body.rfind("<!--", offset);
  const auto close = open == std::string::npos ? std::string::npos : body.find("-->", open);
  return open != std::string::npos && close != std::string::npos && offset < close + 3;
}

} // namespace

TEST_CASE("claims: splitting a generated body loses no character outside headings") {
  for (unsigned seed = 1; seed <= 300; ++seed) {
    const std::string body = Generator(seed).body();
    INFO("seed " << seed << ", body:\n" << body);
    std::vector<bool> covered(body.size(), false);
    std::size_t cursor = 0;
    for (const auto& claim : split_claims(body)) {
      const auto at = body.find(claim.text, cursor);
      INFO("claim: " << claim.text);
      REQUIRE(at != std::string::npos); // claims are pieces of the body, in order, disjoint
      for (std::size_t i = at; i < at + claim.text.size(); ++i) {
        covered[i] = true;
      }
      cursor = at + claim.text.size();
    }
    for (std::size_t i = 0; i < body.size(); ++i) {
      const char c = body[i];
      if (covered[i] || c == ' ' || c == '\n') {
        continue;
      }
      INFO("uncovered character at " << i << ": " << c);
      CHECK(may_be_uncovered(body, i));
    }
  }
}

TEST_CASE("claims: every claim of a generated body has a line inside the body") {
  for (unsigned seed = 1; seed <= 100; ++seed) {
    const std::string body = Generator(seed).body();
    const auto lines = 1 + static_cast<int>(std::count(body.begin(), body.end(), '\n'));
    for (const auto& claim : split_claims(body)) {
      CHECK(claim.line >= 1);
      CHECK(claim.line <= lines);
      CHECK_FALSE(claim.text.empty());
    }
  }
}
