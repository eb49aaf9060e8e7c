#include "base/utf8.hpp"
#include "hook/context.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace engram;

TEST_CASE("text is cut to its budget in characters, with the note inside the budget") {
  CHECK(hook::cut_to_chars("short", 10, "…") == "short");
  const std::string text = "line one\nline two\nline three is long\n";
  const auto cut = hook::cut_to_chars(text, 24, "[cut]");
  CHECK(count_chars(cut) <= 24);
  CHECK(cut == "line one\nline two\n[cut]");
  const auto accents = hook::cut_to_chars("ééééééééé", 5, "…");
  CHECK(accents == "éééé…");
  CHECK(hook::cut_to_chars("abcdef", 2, "[cut]").empty());
}

TEST_CASE("hook output is the JSON Claude Code reads, even for text that is not UTF-8") {
  const auto out = hook::hook_output("SessionStart", "line\n\"quoted\"\n");
  REQUIRE(out.ends_with("}\n"));
  const auto json = nlohmann::json::parse(out);
  CHECK(json["hookSpecificOutput"]["hookEventName"] == "SessionStart");
  CHECK(json["hookSpecificOutput"]["additionalContext"] == "line\n\"quoted\"\n");
  CHECK_NOTHROW(nlohmann::json::parse(hook::hook_output("UserPromptSubmit", "bad \xff byte")));
}

TEST_CASE("the session-start context puts core memory before working memory, within the budget") {
  test::TempDir dir;
  const store::Layout layout;
  test::write_file(dir / "CORE.md", "# Core\n\n- Dana runs the shop.\n");
  test::write_file(dir / "WORKING.md", "# Working\n\n- " + std::string(300, 'w') + "\n");
  hook::ContextRequest request;
  request.today = Date(2026, 11, 22);
  request.budget_chars = 200;
  const auto context = hook::session_start(dir.path(), layout, request);
  CHECK(count_chars(context.text) <= 200);
  const auto core = context.text.find("Dana runs the shop");
  const auto working = context.text.find("## Working memory (WORKING.md)");
  REQUIRE(core != std::string::npos);
  REQUIRE(working != std::string::npos);
  CHECK(core < working);
  CHECK(context.text.find("the rest is in WORKING.md") != std::string::npos);
  CHECK(context.recalled.empty()); // no .index.json: nothing to recall

  test::TempDir empty;
  CHECK(hook::session_start(empty.path(), layout, request).text.empty());
}
