// The change log of a kept model: what a rule asking "what changed since"
// is told, and when it is told that the log cannot say.
#include "engine/change_log.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using engram::engine::ChangeLog;

TEST_CASE("a change log lists each path noted since a revision, once") {
  ChangeLog log;
  log.note("semantic/a.md");
  const auto first = log.revision();
  CHECK(log.since(first) == std::vector<std::string>{});

  log.note("semantic/b.md");
  log.note("semantic/c.md");
  log.note("semantic/b.md");
  const auto second = log.revision();
  CHECK(log.since(first) == std::vector<std::string>{"semantic/b.md", "semantic/c.md"});
  CHECK(log.since(second) == std::vector<std::string>{});

  // The same path again after a revision was named is a change since it.
  log.note("semantic/c.md");
  CHECK(log.since(second) == std::vector<std::string>{"semantic/c.md"});
  CHECK(log.since(first) == std::vector<std::string>{"semantic/b.md", "semantic/c.md"});
}

TEST_CASE("a change log cannot tell about another log's revisions, or none") {
  ChangeLog one;
  ChangeLog other;
  one.note("semantic/a.md");
  other.note("semantic/a.md");
  CHECK_FALSE(one.since(other.revision()).has_value());
  CHECK_FALSE(other.since(one.revision()).has_value());
  CHECK_FALSE(one.since(0).has_value());
  // A revision from the future of this log is not one of its own either.
  CHECK_FALSE(one.since(one.revision() + 1).has_value());
}

TEST_CASE("a change log moved keeps its lineage and what it noted") {
  ChangeLog log;
  const auto before = log.revision();
  log.note("episodic/2026-11-20-x.md");
  ChangeLog moved = std::move(log);
  CHECK(moved.since(before) == std::vector<std::string>{"episodic/2026-11-20-x.md"});
}

TEST_CASE("a change log that dropped what followed a revision says it cannot tell") {
  ChangeLog log;
  const auto old = log.revision();
  for (int i = 0; i < 40000; ++i) {
    log.note("semantic/" + std::to_string(i) + ".md");
  }
  CHECK_FALSE(log.since(old).has_value());
  const auto recent = log.revision();
  log.note("semantic/last.md");
  CHECK(log.since(recent) == std::vector<std::string>{"semantic/last.md"});
}
