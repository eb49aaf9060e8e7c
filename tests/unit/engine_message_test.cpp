// Tests of rendering the record: the summary line counts actions by verb, in
// the order the verbs first appear, in words a reader of `git log` understands.
#include "engine/message.hpp"

#include <catch2/catch.hpp>

using engram::Action;
using engram::engine::Plan;

TEST_CASE("the summary line counts verbs in the order they first appear and names what was skipped") {
  Plan plan;
  plan.record = {
      Action{"dedupe", "absorbed", "- A fact.", "semantic/a.md", "semantic/b.md", ""},
      Action{"dedupe", "duplicate", "- Another.", "semantic/a.md", "semantic/b.md", ""},
      Action{"dedupe", "merged", "", "semantic/a.md", "semantic/b.md", ""},
      Action{"stale-refs", "skipped", "", "", "", "no project_root"},
      Action{"dedupe", "absorbed", "- A third.", "semantic/c.md", "semantic/b.md", ""},
      Action{"dedupe", "flagged", "", "semantic/d.md", "semantic/b.md", "younger than 14 days"},
  };
  CHECK(engram::engine::summary_line(plan) ==
        "consolidate(full): 2 claims absorbed, 1 duplicate, 1 merged, 1 rule skipped, 1 flagged");
  const auto record = engram::engine::render_record(plan);
  CHECK(record.find("- stale-refs skipped (no project_root)\n") != std::string::npos);
  CHECK(record.find("- dedupe flagged: semantic/d.md → semantic/b.md (younger than 14 days)\n") !=
        std::string::npos);
}
