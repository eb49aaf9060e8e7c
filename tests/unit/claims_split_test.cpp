// Tests of claim splitting: which Markdown becomes which claim, with its
// exact source text, context and line.
#include "claims/split.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using engram::Claim;
using engram::ClaimKind;
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

TEST_CASE("claims: an empty or blank body has no claims") {
  CHECK(split_claims("").empty());
  CHECK(split_claims("  \n\n\t\n").empty());
}

TEST_CASE("claims: each list item is one claim with its marker") {
  CHECK(texts("- first item\n- second item\n* third item\n") ==
        std::vector<std::string>{"- first item", "- second item", "* third item"});
  CHECK(texts("1. one\n2. two\n") == std::vector<std::string>{"1. one", "2. two"});
}

TEST_CASE("claims: a list item keeps its wrapped lines and nested list") {
  const std::string body = "- The parser is strict\n  about tabs.\n  - nested detail\n    "
                           "wrapped\n  - another\n- next item\n";
  CHECK(texts(body) ==
        std::vector<std::string>{
            "- The parser is strict\n  about tabs.\n  - nested detail\n    wrapped\n  - another",
            "- next item"});
}

TEST_CASE("claims: a list item with several sentences stays one claim") {
  CHECK(texts("- Builds are slow. Cache them.\n") ==
        std::vector<std::string>{"- Builds are slow. Cache them."});
}

TEST_CASE("claims: a loose list item keeps all its paragraphs") {
  CHECK(texts("- first paragraph.\n\n  second paragraph.\n\n- next\n") ==
        std::vector<std::string>{"- first paragraph.\n\n  second paragraph.", "- next"});
}

TEST_CASE("claims: task list items are claims with their boxes") {
  CHECK(texts("- [ ] rotate the keys\n- [x] update the runbook\n") ==
        std::vector<std::string>{"- [ ] rotate the keys", "- [x] update the runbook"});
}

TEST_CASE("claims: a code block inside a list item stays with the item, fences and all") {
  const std::string body = "- Install with:\n\n  ```sh\n  make install\n  ```\n- next\n";
  CHECK(texts(body) ==
        std::vector<std::string>{"- Install with:\n\n  ```sh\n  make install\n  ```", "- next"});
}

TEST_CASE("claims: a list item that opens with a fence keeps its marker") {
  CHECK(texts("- ```\n  code in item\n  ```\n") ==
        std::vector<std::string>{"- ```\n  code in item\n  ```"});
}

TEST_CASE("claims: a fenced code block joins the claim before it with the blank line between") {
  const std::string body =
      "First fact. Build it with make.\n\n```sh\nmake -j2\n\n\nmake test\n```\n\nAfter.\n";
  CHECK(texts(body) ==
        std::vector<std::string>{
            "First fact.", "Build it with make.\n\n```sh\nmake -j2\n\n\nmake test\n```", "After."});
}

TEST_CASE("claims: tilde fences and indented code blocks join the claim before them") {
  CHECK(texts("Run this:\n\n~~~\nls -la\n~~~\n") ==
        std::vector<std::string>{"Run this:\n\n~~~\nls -la\n~~~"});
  CHECK(texts("Run this:\n\n    ls -la\n    pwd\n") ==
        std::vector<std::string>{"Run this:\n\n    ls -la\n    pwd"});
}

TEST_CASE("claims: a code block after a list joins the last item") {
  CHECK(texts("- one\n- two\n\n```\ncode\n```\n") ==
        std::vector<std::string>{"- one", "- two\n\n```\ncode\n```"});
}

TEST_CASE("claims: a code block with no claim before it is a claim of its own") {
  CHECK(texts("```\ncode\n```\n") == std::vector<std::string>{"```\ncode\n```"});
  const auto claims = split_claims("Intro.\n\n# Usage\n\n```\nrun\n```\n");
  REQUIRE(claims.size() == 2);
  CHECK(claims[1].text == "```\nrun\n```");
  CHECK(claims[1].context == "Usage");
}

TEST_CASE("claims: headings are context, outermost first, not claims") {
  const std::string body = "# Project\n\n## Build\n\nUse ninja.\n\n### Flags\n\n- -j2\n\n## "
                           "Deploy\n\nFridays are frozen.\n";
  const auto claims = split_claims(body);
  REQUIRE(claims.size() == 3);
  CHECK(claims[0].text == "Use ninja.");
  CHECK(claims[0].context == "Project > Build");
  CHECK(claims[1].context == "Project > Build > Flags");
  CHECK(claims[2].context == "Project > Deploy");
}

TEST_CASE("claims: claims before any heading have no context and a new top heading resets it") {
  const auto claims = split_claims("Loose fact.\n\n# A\n\n## B\n\nIn B.\n\n# C\n\nIn C.\n");
  REQUIRE(claims.size() == 3);
  CHECK(claims[0].context.empty());
  CHECK(claims[1].context == "A > B");
  CHECK(claims[2].context == "C");
}

TEST_CASE("claims: heading context drops inline markup and setext headings count") {
  const auto claims = split_claims("Setup `npm` *fast*\n==================\n\nFact.\n");
  REQUIRE(claims.size() == 1);
  CHECK(claims[0].context == "Setup npm fast");
}

TEST_CASE(
    "claims: a solution section is one claim from its heading to the next heading of its level") {
  const std::string section =
      "## Solution: windows-pip-scripts-not-on-path\n\n"
      "**Symptom:** Command not found after `pip install` on Windows\n"
      "**Failed:** Assumed scripts land on system PATH\n\n"
      "### Details\n\n- Scripts go to `AppData\\Roaming\\Python\\Python312\\Scripts`\n\n"
      "```\nwhere python\n```";
  const std::string body =
      "# Feedback\n\n" + section + "\n\n## Other rule\n\nAlways pin versions.\n";
  const auto claims = split_claims(body);
  REQUIRE(claims.size() == 2);
  CHECK(claims[0].text == section);
  CHECK(claims[0].kind == ClaimKind::solution);
  CHECK(claims[0].title == "windows-pip-scripts-not-on-path");
  CHECK(claims[0].context == "Feedback");
  CHECK(claims[0].line == 3);
  CHECK(claims[1].text == "Always pin versions.");
  CHECK(claims[1].context == "Feedback > Other rule");
}

TEST_CASE("claims: a solution section runs to a higher heading or the end of the body") {
  auto claims = split_claims("## Solution: a\n\nFix A.\n\n# Top\n\nFact.\n");
  REQUIRE(claims.size() == 2);
  CHECK(claims[0].text == "## Solution: a\n\nFix A.");
  CHECK(claims[1].context == "Top");
  claims = split_claims("## Solution: b\n\nFix B.\n\n");
  REQUIRE(claims.size() == 1);
  CHECK(claims[0].text == "## Solution: b\n\nFix B.");
  CHECK(claims[0].title == "b");
}

TEST_CASE("claims: line numbers are 1-based lines of the body") {
  const auto claims =
      split_claims("# Title\n\nFirst. Second\nwraps. Third.\n\n- item\n\n> Quoted.\n");
  REQUIRE(claims.size() == 5);
  CHECK(claims[0].line == 3);
  CHECK(claims[1].line == 3);
  CHECK(claims[2].line == 4);
  CHECK(claims[3].line == 6);
  CHECK(claims[4].line == 8);
}

TEST_CASE("claims: block quote sentences are claims") {
  CHECK(texts("> Quoted fact. Another one\n> wrapped.\n") ==
        std::vector<std::string>{"Quoted fact.", "Another one\n> wrapped."});
}

TEST_CASE("claims: a table is one claim") {
  const std::string table =
      "| flag | meaning |\n|------|---------|\n| -j | jobs. Many. |\n| -v | verbose |";
  CHECK(texts("Flags:\n\n" + table + "\n") == std::vector<std::string>{"Flags:", table});
}

TEST_CASE("claims: HTML comments are not claims, other HTML blocks are") {
  CHECK(texts("Fact one.\n\n<!-- superseded 2024-01-01: previously \"old\" -->\n\nFact two.\n") ==
        std::vector<std::string>{"Fact one.", "Fact two."});
  CHECK(texts("<details>\nHidden fact.\n</details>\n") ==
        std::vector<std::string>{"<details>\nHidden fact.\n</details>"});
}

TEST_CASE("claims: text no block holds, like a link reference definition, becomes a claim") {
  CHECK(texts("Intro.\n\n[docs]: https://example.com/docs\n") ==
        std::vector<std::string>{"Intro.", "[docs]: https://example.com/docs"});
}

TEST_CASE("claims: claims are classified as they are split") {
  const auto claims = split_claims("- Always run the tests first.\n- The runbook can be found at "
                                   "https://wiki/x\n- The API is REST.\n");
  REQUIRE(claims.size() == 3);
  CHECK(claims[0].kind == ClaimKind::behavioural);
  CHECK(claims[1].kind == ClaimKind::reference);
  CHECK(claims[2].kind == ClaimKind::factual);
}

TEST_CASE("claims: CRLF line endings are trimmed from claim texts") {
  CHECK(texts("First. Second.\r\n\r\n- item\r\n") ==
        std::vector<std::string>{"First.", "Second.", "- item"});
}

TEST_CASE("claims: lone carriage returns end lines as CommonMark says") {
  const auto claims = split_claims("Intro text\r<div>raw</div>\r\r- item\r");
  REQUIRE(claims.size() == 3);
  CHECK(claims[0].text == "Intro text");
  CHECK(claims[1].text == "<div>raw</div>");
  CHECK(claims[1].line == 2);
  CHECK(claims[2].text == "- item");
  CHECK(claims[2].line == 4);
}

TEST_CASE("claims: consecutive code blocks all join the claim before them") {
  CHECK(texts("Text:\n```\none\n```\n```\ntwo\n```\n") ==
        std::vector<std::string>{"Text:\n```\none\n```\n```\ntwo\n```"});
}

TEST_CASE("claims: a `Solution:` heading that names nothing is an ordinary heading") {
  // Found by the claims fuzzer: the section became a solution with an empty title.
  const auto claims = split_claims("## Solution:\n\nRestart the worker.\n");
  REQUIRE(claims.size() == 1);
  CHECK(claims[0].kind != ClaimKind::solution);
  CHECK(claims[0].title.empty());
  CHECK(claims[0].text == "Restart the worker.");
}
