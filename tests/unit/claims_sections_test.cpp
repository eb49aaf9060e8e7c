// ClaimSections must be an optimisation and nothing else: over generated
// bodies full of Markdown hazards, and over random edits of them, the claims
// kept section by section equal split_claims of the whole body, and the
// section starts found after an edit equal those found from scratch.
#include "claims/sections.hpp"
#include "claims/split.hpp"
#include "lib/claims_dump.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

using engram::Claim;
using engram::claims::ClaimSections;
using engram::claims::section_starts;
using engram::claims::section_starts_after_edit;
using engram::claims::split_claims;
using engram::claims::split_whole;

namespace {

// Blocks that each carry a hazard for cutting a body into sections.
const std::vector<std::string> k_blocks = {
    "# Title",
    "## Deploying",
    "## Solution: stale-lock\n\n**Symptom:** it hangs\n**Solution:** remove the lock",
    "# Solution: everything\n\n- one\n- two",
    "### Solution: deep one\n\n- inside",
    "### Details",
    "> ## Solution: quoted\n> - quoted item",
    " ## indented heading",
    "- The order sync page size is 250.",
    "- Always check the refund queue before deploying on Friday.",
    "- A fact\n  <!-- superseded 2026-11-22: previously \"A fact, then\" -->",
    "- item with continuation\n  more of it\n\n  a second paragraph",
    "* star item\n+ plus item",
    "1. first\n2. second",
    "- [x] done task\n- [ ] open task",
    "-\n  item opening on the next line",
    "- item\n\n  ```\n  code in an item\n  ```",
    "The cache is warm. Use e.g. Python here. Pin v1.4.2 now.",
    "A paragraph\nwrapped over lines\nwith `code. spans` in it.",
    "```sh\nmake test\n## not a heading\n- not an item\n```",
    "~~~\n# tilde fence\n~~~",
    "```\nunclosed fence\n## still code",
    "    indented code\n    - not an item",
    "<!-- a comment -->",
    "<!-- a comment\n## inside it\n-->",
    "<div>\n## html block\n</div>",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "| a | b |\n|---|---|\n## after table",
    "> quoted paragraph\n> - quoted item",
    "---",
    "- - -",
    "Setext heading\n==============",
    "Solution: setext\n---",
    "[ref]: https://example.com/x",
    "See [ref] for more.",
    "Text with a lone\rcarriage return.",
    "Windows line\r\n- windows item\r\n## Windows heading\r",
    "#hashtag is no heading",
    "##",
    "- ```inline``` fence in an item",
    "Inline ``` triple backticks",
    "## **Solution:** emphasised",
    "## Solution: closed ##",
    "# Solution: top\n## Sub of it\n- under it",
    "- outer\n  - nested\n    - deeper",
    "- item\n<!-- comment opened\nin an item -->",
    "- A claim\n  <!-- superseded: previously \"- v2\n  <!-- superseded: previously \"- v1\" -->\" -->",
    "<!-- notes\n\n- not an item\n\n# not a heading\n-->",
    "  <!-- indented comment\n- column-0 item inside\n  -->",
    "<!-- comment\n| a | b |\n-->\n- after it",
    "- item\n  <!-- open\n## Solution: in a comment\n  -->",
    "<!-- never closed\n- item",
    "> quote\nlazy continuation\n- after quote",
    "| x |\n|---|\n\n## after blank",
    "- a\n- b\n- c\n- d",
    "## Heading with `code`",
    "## 2026 plans",
    "- 250 items per page",
    "- *emphasised* item",
    "\t- tab item",
    "  - indented item",
    "```\n```",
    "- item\n```\nfence at column 0 after an item\n```",
};

// Bodies and edits driven by one seed.
class Generator {
public:
  // A generator whose output is fixed by `seed`.
  explicit Generator(unsigned seed) : m_random(seed) {}

  // A number in [low, high].
  std::size_t pick(std::size_t low, std::size_t high) {
    return std::uniform_int_distribution<std::size_t>(low, high)(m_random);
  }

  // One block, sometimes without the blank line after it.
  std::string block() {
    auto text = k_blocks[pick(0, k_blocks.size() - 1)];
    return text + (pick(0, 3) == 0 ? "\n" : "\n\n");
  }

  // A body of random blocks.
  std::string body() {
    std::string out;
    for (std::size_t i = 0, n = pick(1, 14); i < n; ++i) {
      out += block();
    }
    return out;
  }

  // `body` edited once: a block inserted or appended, lines removed or
  // replaced, or bytes inserted anywhere.
  std::string edit(const std::string& body) {
    const auto lines = line_starts(body);
    switch (pick(0, 5)) {
    case 0: // append, as consolidation does
      return body + block();
    case 1: { // insert a block at a line start
      const auto at = lines[pick(0, lines.size() - 1)];
      return body.substr(0, at) + block() + body.substr(at);
    }
    case 2: { // remove some lines
      const auto from = pick(0, lines.size() - 1);
      const auto to = std::min(lines.size() - 1, from + pick(1, 3));
      return body.substr(0, lines[from]) + body.substr(to < lines.size() - 1 ? lines[to] : body.size());
    }
    case 3: { // replace a line
      const auto line = pick(0, lines.size() - 1);
      const auto end = body.find('\n', lines[line]);
      const auto text = k_blocks[pick(0, k_blocks.size() - 1)];
      return body.substr(0, lines[line]) + text.substr(0, text.find('\n')) +
             (end == std::string::npos ? "" : body.substr(end));
    }
    case 4: { // insert bytes anywhere
      const auto at = pick(0, body.size());
      const std::vector<std::string> bits = {"#",  "- ", "\n", "```", "|", "<",  "Solution", " x",
                                             "\n## h\n", "\r", "`", "[", "]:", ">", "*", "\t", "~~~",
                                             "-->", "<!--", "\n- ", "\n# ", "\n\n", "="};
      return body.substr(0, at) + bits[pick(0, bits.size() - 1)] + body.substr(at);
    }
    default: { // insert a list item at the end of a section, as absorbing does
      const auto at = lines[pick(0, lines.size() - 1)];
      return body.substr(0, at) + "- Never restart the sync while it runs.\n" + body.substr(at);
    }
    }
  }

private:
  // Where each line of `body` starts, and its end.
  static std::vector<std::size_t> line_starts(const std::string& body) {
    std::vector<std::size_t> out{0};
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (body[i] == '\n' && i + 1 < body.size()) {
        out.push_back(i + 1);
      }
    }
    out.push_back(body.size());
    return out;
  }

  std::mt19937 m_random;
};

using engram::test::dump;

} // namespace

TEST_CASE("section by section, generated bodies split into exactly the claims of the whole") {
  for (unsigned seed = 1; seed <= 3000; ++seed) {
    Generator gen(seed);
    const auto body = gen.body();
    INFO("seed " << seed << "\n" << body);
    // Parsed whole by md4c, the same claims (md4c's rare quirks aside: these seeds have none).
    REQUIRE(dump(split_claims(body)) == dump(split_whole(body)));
    ClaimSections sections;
    sections.update(body);
    REQUIRE(dump(sections.claims()) == dump(split_claims(body)));
  }
}

TEST_CASE("after each of many edits, the kept sections still give exactly the claims of the whole") {
  std::size_t cut_bodies = 0;
  std::size_t kept_starts = 0;  // edits whose starts before them were kept, not found again
  std::size_t moved_starts = 0; // edits whose starts after them were the old ones, moved
  for (unsigned seed = 1; seed <= 600; ++seed) {
    Generator gen(seed);
    std::string body = gen.body();
    ClaimSections sections;
    sections.update(body);
    for (int step = 0; step < 25; ++step) {
      const auto old_body = body;
      const auto old_starts = section_starts(old_body);
      body = gen.edit(body);
      INFO("seed " << seed << ", step " << step << "\nbefore:\n" << old_body << "\nafter:\n" << body);
      // The section starts found from the old ones equal those found from scratch.
      std::size_t prefix = 0;
      while (prefix < std::min(body.size(), old_body.size()) && body[prefix] == old_body[prefix]) {
        ++prefix;
      }
      std::size_t suffix = 0;
      while (suffix < std::min(body.size(), old_body.size()) - prefix &&
             body[body.size() - 1 - suffix] == old_body[old_body.size() - 1 - suffix]) {
        ++suffix;
      }
      const auto fresh = section_starts(body);
      const auto edited = section_starts_after_edit(body, old_body, old_starts, prefix, suffix);
      REQUIRE(edited.all(old_starts) == fresh);
      REQUIRE(edited.size(old_starts) == fresh.size());
      cut_bodies += fresh.size() > 1 ? 1 : 0;
      kept_starts += edited.kept > 1 ? 1 : 0;
      moved_starts += edited.tail < old_starts.size() ? 1 : 0;
      const auto claims_before = sections.claims();
      std::vector<const void*> contents_before;
      for (const auto& section : sections.sections()) {
        contents_before.push_back(section.content.get());
      }
      const auto change = sections.update(body);
      const auto claims_after = sections.claims();
      REQUIRE(dump(claims_after) == dump(split_claims(body)));
      // The change names everything that changed: the sections and claims
      // outside it are the ones from before, the claims with the same texts.
      REQUIRE(change.first + change.removed <= contents_before.size());
      REQUIRE(sections.sections().size() == contents_before.size() - change.removed + change.added);
      for (std::size_t k = 0; k < change.first; ++k) {
        REQUIRE(sections.sections()[k].content.get() == contents_before[k]);
      }
      for (std::size_t k = change.first + change.removed; k < contents_before.size(); ++k) {
        REQUIRE(sections.sections()[k - change.removed + change.added].content.get() ==
                contents_before[k]);
      }
      REQUIRE(change.claims_first + change.claims_removed <= claims_before.size());
      REQUIRE(claims_after.size() ==
              claims_before.size() - change.claims_removed + change.claims_added);
      for (std::size_t i = 0; i < change.claims_first; ++i) {
        REQUIRE(claims_after[i].text == claims_before[i].text);
      }
      for (std::size_t i = change.claims_first + change.claims_removed; i < claims_before.size();
           ++i) {
        REQUIRE(claims_after[i - change.claims_removed + change.claims_added].text ==
                claims_before[i].text);
      }
      std::size_t claims_so_far = 0;
      for (const auto& section : sections.sections()) {
        REQUIRE(section.first_claim == claims_so_far);
        claims_so_far += section.content->claims.size();
      }
    }
  }
  CHECK(cut_bodies > 1000); // the edits mostly leave bodies that are cut into sections
  CHECK(kept_starts > 500); // and the starts are often said through the old ones
  CHECK(moved_starts > 500);
}

TEST_CASE("a body is cut at top-level headings and bullets, and not inside fences or solutions") {
  const std::string body = "# Notes\n\n- one\n- two\n\n```\n- three\n```\n\n## Solution: x\n\n- four\n\n"
                           "## Next\n\n- five\n";
  const auto starts = section_starts(body);
  std::vector<std::string> firsts;
  for (const auto start : starts) {
    firsts.push_back(body.substr(start, body.find('\n', start) - start));
  }
  CHECK(firsts == std::vector<std::string>{"# Notes", "- one", "- two", "## Solution: x", "## Next", "- five"});
}

TEST_CASE("a link reference definition anywhere leaves the body whole") {
  CHECK(section_starts("# A\n\n- one\n\n[x]: https://example.com\n\n## B\n").size() == 1);
}
