// The built-in guard and index rules through `engram consolidate`: WORKING.md
// is brought under its target without dropping an item, and MEMORY.md fits its
// budget while .index.json keeps every memory.
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <engram/text.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>

namespace fs = std::filesystem;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::semantic_memory;
using engram::test::write_file;

namespace {

constexpr const char* k_now = "2026-11-22";

// The lines of a text without their endings.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (const auto& line : engram::text::split_lines(text)) {
    lines.emplace_back(engram::text::without_eol(line));
  }
  return lines;
}

// A fact of its own for memory `i`, longer than one index line: most of its
// significant words are made from `i`, so no two of these memories share the
// 60% of words that makes dedupe merge them.
std::string distinct_fact(int i) {
  std::string fact = fmt::format("Fact {} lists", i);
  for (const char* part : {"host", "queue", "shard", "table", "bucket", "ledger", "mirror", "cache",
                           "topic", "route", "vault", "index", "batch", "relay"}) {
    fact += fmt::format(" {}{:03}", part, i);
  }
  return fact + ", a sentence that goes on well past the width of one index line.\n";
}

} // namespace

TEST_CASE("WORKING.md over its guard is trimmed under the target and every moved item is kept") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  std::string working = "---\ntype: working\ncreated: 2026-10-01\n---\n# Working memory\n\n"
                        "## Current focus\n";
  std::vector<std::string> items;
  for (int i = 0; i < 12; ++i) {
    items.push_back(fmt::format("- [x] Finished task number {} about the order sync retries", i));
  }
  for (int i = 0; i < 30; ++i) {
    items.push_back(fmt::format("- 2026-10-{:02}: Observed that batch {} of the import took longer "
                                "than the one before",
                                i + 1, i));
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    working += items[i] + "\n";
    if (i == 20) {
      working += "\n## Active context\n";
    }
  }
  working += "\n## Open items\n";
  write_file(store / "WORKING.md", working);
  REQUIRE(engram::text::count_chars(working) > 3000);

  const auto result = sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now});
  INFO(result.out);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);

  const std::string after = read_file(store / "WORKING.md");
  CHECK(engram::text::count_chars(after) < 2000);
  for (const char* heading :
       {"# Working memory", "## Current focus", "## Active context", "## Open items"}) {
    CHECK_THAT(after, Catch::Contains(std::string("\n") + heading + "\n"));
  }
  const fs::path moved_to = store / "episodic" / (std::string(k_now) + "-working-memory.md");
  REQUIRE(fs::exists(moved_to));
  const std::string moved = read_file(moved_to);
  CHECK(moved.starts_with("---\ntype: episodic\n"));
  CHECK_THAT(moved, Catch::Contains("decay-after: "));
  std::size_t moved_count = 0;
  for (const auto& item : items) {
    const bool in_working = after.find(item + "\n") != std::string::npos;
    const bool in_episodic = moved.find(item + "\n") != std::string::npos;
    INFO(item);
    CHECK(in_working != in_episodic); // exactly one of the two: nothing lost, nothing doubled
    moved_count += in_episodic ? 1 : 0;
    if (item.starts_with("- [x]")) {
      CHECK(in_episodic); // completed items go first
    }
  }
  CHECK(moved_count > 12);
  // The oldest dated items went before newer ones.
  CHECK(moved.find("2026-10-01:") != std::string::npos);
  CHECK(after.find("2026-10-30:") != std::string::npos);
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());
}

TEST_CASE("MEMORY.md fits 200 lines of 150 chars for 400 memories and .index.json lists them all") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  for (int i = 0; i < 400; ++i) {
    const std::string salience = i % 3 == 0 ? "high" : i % 3 == 1 ? "medium" : "low";
    write_file(store / "semantic" / fmt::format("topic-{:03}.md", i),
               semantic_memory({"topic", fmt::format("t{}", i % 17)}, "2026-01-05",
                               distinct_fact(i), salience));
  }
  write_file(store / "procedural" / "feedback.md",
             "---\ntype: procedural\ntags: [workflow]\ntrigger: [deploy]\n---\n## Deploy\n\n"
             "Always run the tests first.\n");
  write_file(store / "reference" / "links.md",
             "---\ntype: reference\ntags: [links]\n---\n- The wiki can be found at "
             "https://wiki.example.\n");
  write_file(store / "episodic" / "2026-11-20-recent.md",
             engram::test::episodic_memory({"topic"}, "2026-11-20", "2027-02-18",
                                           "- Something recent happened.\n"));

  const auto result = sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);

  const auto memory = lines_of(read_file(store / "MEMORY.md"));
  CHECK(memory.size() <= 200);
  for (const auto& line : memory) {
    INFO(line);
    CHECK(engram::text::count_chars(line) <= 150);
  }
  std::set<std::string> sections;
  bool more = false;
  for (const auto& line : memory) {
    if (line.starts_with("## ")) {
      sections.insert(line.substr(3, line.find(' ', 3) - 3));
    }
    more = more || (line.starts_with("- ") && line.find(" more") != std::string::npos &&
                    line.find(".index.json") != std::string::npos);
  }
  for (const char* section : {"Working", "Semantic", "Procedural", "Reference", "Episodic"}) {
    INFO(section);
    CHECK(sections.count(section) == 1);
  }
  CHECK(more);

  const auto index = nlohmann::json::parse(read_file(store / ".index.json"));
  CHECK(index["version"] == 1);
  CHECK(index["generated"] == k_now);
  const auto& entries = index["entries"];
  // and WORKING.md, CORE.md (the episode is recent context), feedback, links, the episode
  CHECK(entries.size() == 400 + 5);
  std::set<std::string> paths;
  for (const auto& entry : entries) {
    paths.insert(entry["path"].get<std::string>());
    for (const char* key :
         {"path", "filename", "type", "tags", "salience", "confidence", "source", "created",
          "last_accessed", "summary", "related", "project", "status", "trigger"}) {
      INFO(entry["path"] << " " << key);
      CHECK(entry.contains(key));
    }
    if (entry["type"] == "episodic") {
      CHECK(entry.contains("retention"));
      CHECK(entry["decay_after"] == "2027-02-18");
    }
    if (entry["path"] == "procedural/feedback.md") {
      CHECK(entry["trigger"] == nlohmann::json::array({"deploy"}));
    }
  }
  for (int i = 0; i < 400; ++i) {
    CHECK(paths.count(fmt::format("semantic/topic-{:03}.md", i)) == 1);
  }
}
