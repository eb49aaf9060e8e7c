// Tests of conservation: a line that moved, wrapped or went into a marker is
// found; a line that was dropped is named with its file and line.
#include "engine/conservation.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using engram::engine::Before;
using engram::engine::lost_lines;

namespace {

const std::string k_episode = "---\ntype: episodic\ntags: [api]\n---\n# Rate limits\n\n"
                              "The API allows 40 requests per second per shop.\n"
                              "Bulk exports run at most\nonce an hour.\n"
                              "- [ ] Ask about the quota\n";

} // namespace

TEST_CASE("conservation: lines that moved, wrapped or were quoted are all found") {
  const std::vector<Before> before{{"episodic/e.md", k_episode}};
  const std::string target = "---\ntype: semantic\n---\n## Limits\n\n"
                             "- The API allows 40 requests per second per shop.\n"
                             "- Bulk exports run at most once an hour.\n"
                             "<!-- superseded 2026-11-02: \"Ask about the quota\" -->\n";
  CHECK(lost_lines(before, {target}).empty());
}

TEST_CASE("conservation: a dropped line is named with its file and line") {
  const std::vector<Before> before{{"episodic/e.md", k_episode}};
  const std::string target = "- The API allows 40 requests per second per shop.\n"
                             "- Ask about the quota\n";
  const auto lost = lost_lines(before, {target});
  REQUIRE(lost.size() == 2);
  CHECK(lost[0].path == "episodic/e.md");
  CHECK(lost[0].line == 8);
  CHECK(lost[0].text == "Bulk exports run at most");
  CHECK(lost[1].line == 9);
}

TEST_CASE("conservation: a claim the record names counts, and so does a changed case") {
  const std::vector<Before> before{{"semantic/a.md", "# A\n\n- Backups run nightly at 02:00.\n"}};
  CHECK(lost_lines(before, {"backups run NIGHTLY at 02:00"}).empty());
  CHECK(lost_lines(before, {"Backups run weekly at 02:00."}).size() == 1);
}

TEST_CASE("conservation: frontmatter, headings and lines without words are not compared") {
  const std::vector<Before> before{{"semantic/a.md", "---\nname: x\n---\n# Title\n\n---\n| - |\n"}};
  CHECK(lost_lines(before, {""}).empty());
}

TEST_CASE("conservation: a one-word line must be there as a word, not inside another") {
  const std::vector<Before> before{{"WORKING.md", "- Deploy\n"}};
  CHECK(lost_lines(before, {"- deploying soon"}).size() == 1);
  CHECK(lost_lines(before, {"- deploy soon"}).empty());
}

TEST_CASE("conservation: each sentence of a line is looked for on its own") {
  const std::vector<Before> before{
      {"episodic/e.md", "Backups run nightly. Always check the quota first. \n"}};
  CHECK(lost_lines(before, {"- Always check the quota first.\n", "- Backups run nightly.\n"})
            .empty());
  CHECK(lost_lines(before, {"- Backups run nightly.\n"}).size() == 1);
}

TEST_CASE("conservation: a link mended to another memory file keeps its line, a web link does "
          "not change") {
  const std::vector<Before> index{{"MEMORY.md", "- [Freeze](project_freeze.md) — no merges\n"}};
  CHECK(lost_lines(index, {"- [Freeze](project_release_freeze.md) — no merges\n"}).empty());
  const std::vector<Before> web{{"MEMORY.md", "- [Docs](https://docs.example/api) — the API\n"}};
  CHECK(lost_lines(web, {"- [Docs](https://docs.example/other) — the API\n"}).size() == 1);
}
