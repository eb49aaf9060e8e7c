#include "config/config.hpp"
#include "engine/usage_fold.hpp"
#include "lib/temp_dir.hpp"
#include "store/scan.hpp"

#include <catch2/catch.hpp>

using namespace engram;

namespace {

// The frontmatter of a memory that usage is folded into, with a comment and
// a quoted value that must survive byte for byte.
constexpr const char* k_memory = "---\n"
                                 "type: semantic  # kept\n"
                                 "tags: [a, b]\n"
                                 "summary: \"quoted: yes\"\n"
                                 "last-accessed: 2026-10-01\n"
                                 "uses: 4\n"
                                 "---\n"
                                 "Body line.\n";

} // namespace

TEST_CASE("folding usage adds to the counts and moves last-accessed, and changes nothing else") {
  test::TempDir dir;
  test::write_file(dir / "semantic/a.md", k_memory);
  test::write_file(dir / "semantic/odd.md",
                   "---\ntype: semantic\nuses: many\nlast-accessed: last week\n---\nText.\n");
  const store::Layout layout;
  const auto snapshot = store::scan(dir.path(), layout, store::ScanLimits{});
  engine::Workspace workspace(snapshot, layout, config::Settings::defaults(), Date(2026, 11, 22),
                              RunKind::full);
  std::map<std::string, usage::Tally> tallies;
  tallies["semantic/a.md"] = usage::Tally{2, 1, 1, Date(2026, 11, 20), 4};
  tallies["semantic/odd.md"] = usage::Tally{1, 0, 0, Date(2026, 11, 20), 1};
  tallies["semantic/gone.md"] = usage::Tally{3, 0, 0, Date(2026, 11, 20), 3};
  engine::fold_usage(workspace, layout, tallies);
  const auto plan = workspace.plan();

  CHECK(workspace.read("semantic/a.md") == "---\n"
                                           "type: semantic  # kept\n"
                                           "tags: [a, b]\n"
                                           "summary: \"quoted: yes\"\n"
                                           "last-accessed: 2026-11-20\n"
                                           "uses: 6\n"
                                           "helpful: 1\n"
                                           "unhelpful: 1\n"
                                           "---\n"
                                           "Body line.\n");
  // A value the user wrote that is not a count or a date stays as written.
  CHECK(workspace.read("semantic/odd.md") ==
        "---\ntype: semantic\nuses: many\nlast-accessed: last week\n---\nText.\n");
  REQUIRE(plan.record.size() == 3);
  CHECK(plan.record[0].rule == "usage");
  CHECK(plan.record[0].action == "counted");
  CHECK(plan.record[0].target == "semantic/a.md");
  CHECK(plan.record[0].reason == "uses +2, helpful +1, unhelpful +1, last accessed 2026-11-20");
  CHECK(plan.record[1].action == "dropped");
  CHECK(plan.record[1].target == "semantic/gone.md");
  CHECK(plan.record[2].reason == "uses left as written, last-accessed left as written");
  bool uses_said = false;
  bool date_said = false;
  for (const auto& diagnostic : plan.diagnostics) {
    if (diagnostic.reason == "`uses` is not a whole number; 1 more not added") {
      uses_said = true;
      CHECK(diagnostic.line == 3);
    }
    if (diagnostic.reason == "`last-accessed` is not a date YYYY-MM-DD; left as written") {
      date_said = true;
      CHECK(diagnostic.line == 4);
    }
  }
  CHECK(uses_said);
  CHECK(date_said);
}
