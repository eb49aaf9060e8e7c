// The edits behind `engram append`: a dated item lands under its section, or
// in a new section at the end, and every other byte of the file is kept.
#include "cli/working_append.hpp"

#include <catch2/catch.hpp>

using engram::Date;
using engram::cli::append_at_end;
using engram::cli::dated_item;
using engram::cli::insert_under_section;

namespace {
const Date k_day{2026, 11, 22};
} // namespace

TEST_CASE("a dated item is one list item, its continuation lines indented") {
  CHECK(dated_item(k_day, "fixed it", "\n") == "- 2026-11-22: fixed it\n");
  CHECK(dated_item(k_day, "first\nsecond\n\n", "\n") == "- 2026-11-22: first\n  second\n");
  CHECK(dated_item(k_day, "a\r\nb", "\r\n") == "- 2026-11-22: a\r\n  b\r\n");
}

TEST_CASE("an item goes after the last line of its section, before the next heading") {
  const std::string body = "# Working\n\n## Now\n- a\n\n## Later\n- b\n";
  CHECK(insert_under_section(body, "Now", "- c\n", "\n") ==
        "# Working\n\n## Now\n- a\n- c\n\n## Later\n- b\n");
}

TEST_CASE("the section is found whatever its case, and an empty one gets a blank line") {
  CHECK(insert_under_section("## Now\n## Later\n", "now", "- c\n", "\n") ==
        "## Now\n\n- c\n\n## Later\n");
  CHECK(insert_under_section("## NOW ##\n\n", "now", "- c\n", "\n") == "## NOW ##\n\n- c\n\n");
}

TEST_CASE("a missing section is created at the end") {
  CHECK(insert_under_section("# Working\n\n## Later\n- b\n", "Now", "- c\n", "\n") ==
        "# Working\n\n## Later\n- b\n\n## Now\n\n- c\n");
  CHECK(insert_under_section("# Working", "Now", "- c\n", "\n") == "# Working\n\n## Now\n\n- c\n");
  CHECK(insert_under_section("", "Now", "- c\n", "\n") == "## Now\n\n- c\n");
}

TEST_CASE("a level-3 heading stays inside the section it belongs to") {
  CHECK(insert_under_section("## Now\n### detail\n- a\n## Later\n", "Now", "- c\n", "\n") ==
        "## Now\n### detail\n- a\n- c\n\n## Later\n");
}

TEST_CASE("a last line without a newline is ended before the item") {
  CHECK(insert_under_section("## Now\n- a", "Now", "- c\n", "\n") == "## Now\n- a\n- c\n");
  CHECK(append_at_end("# t\n\n- a", "- c\n", "\n") == "# t\n\n- a\n- c\n");
}
