// The sections episodic-decay files claims under: finding a `## ` section,
// and the title index that lets a new title skip reading the whole target,
// which must never miss a title the target has, whoever changed it.
#include "../../rules/episodic-decay/sections.hpp"
#include "lib/store_model.hpp"

#include <catch2/catch.hpp>

using engram::Date;
using engram::episodic_decay::find_section;
using engram::episodic_decay::Headings;

namespace {

const std::string k_feedback = "# Feedback\n\n## Deploys ##\n\n- Always tag.\n\n"
                               "```sh\n# not a heading\n```\n\n## Solution: stuck\n\n1. Wait.\n";

} // namespace

TEST_CASE("find_section finds a level-2 section by title, ignoring case, to the next heading") {
  const auto found = find_section(k_feedback, "deploys");
  REQUIRE(found);
  CHECK(k_feedback.substr(found->heading).starts_with("## Deploys ##"));
  // A '#' line in a fence ends it too: the rule has always read headings line by line.
  CHECK(k_feedback.substr(found->end).starts_with("# not a heading"));
  CHECK(find_section(k_feedback, "Solution: stuck"));
  CHECK_FALSE(find_section(k_feedback, "Feedback")); // level 1
  CHECK_FALSE(find_section(k_feedback, "Deploy"));
}

TEST_CASE("a bare ## line is an empty level-2 heading: it ends a section and can be found") {
  // Shared by episodic-decay and dedupe (knowledge.hpp); dedupe used to read
  // a bare `##` as text inside the section before it.
  const std::string body = "# Notes\n\n## Alpha\n\n- one\n##\n- two\n## Beta\n- three\n";
  const auto alpha = find_section(body, "ALPHA");
  REQUIRE(alpha);
  CHECK(body.substr(alpha->end).starts_with("##\n- two"));
  const auto bare = find_section(body, "");
  REQUIRE(bare);
  CHECK(bare->heading == alpha->end);
  CHECK(body.substr(bare->end).starts_with("## Beta"));
  CHECK(engram::knowledge::find_section(body, "beta")->end == body.size());
}

TEST_CASE("the title index answers as find_section does, after the rule's edits and others'") {
  engram::test::StoreModel model({{"procedural/feedback.md", k_feedback}}, Date(2026, 11, 22),
                                 "episodic-decay");
  auto& store = *model.workspace;
  const std::string path = "procedural/feedback.md";
  Headings headings;
  const auto agrees = [&](const std::string& title) {
    const auto body = store.body(path);
    const bool may = headings.may_have(store, path, body, title);
    // "Not there" is certain; "there" may be stale only after a title was taken out.
    return may || !find_section(body, title);
  };
  CHECK(headings.may_have(store, path, store.body(path), "DEPLOYS"));
  CHECK(headings.may_have(store, path, store.body(path), "solution: stuck"));
  CHECK_FALSE(headings.may_have(store, path, store.body(path), "Releases"));

  // The rule's own edit, told to the index.
  const std::string added = "## Releases\n\n- Never ship on Friday.\n";
  store.set_body(path, store.body(path) + "\n" + added);
  headings.wrote(store, path, added);
  CHECK(headings.may_have(store, path, store.body(path), "releases"));
  CHECK(agrees("Releases"));

  // An edit the index is not told of (another writer of the model): read again.
  store.set_body(path, store.body(path) + "\n## Rollbacks\n\n- Keep the last image.\n");
  CHECK(headings.may_have(store, path, store.body(path), "Rollbacks"));
  for (const auto* title : {"Deploys", "Releases", "Rollbacks", "Solution: stuck", "Other"}) {
    INFO(title);
    CHECK(agrees(title));
  }
}
