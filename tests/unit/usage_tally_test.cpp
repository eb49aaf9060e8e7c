#include "usage/tally.hpp"

#include <catch2/catch.hpp>

using namespace engram;

TEST_CASE("a tally counts recalls as uses, feedback as helpful or not, and keeps the last day") {
  std::vector<usage::Event> events(4);
  events[0].date = Date(2026, 11, 20);
  events[0].files = {"semantic/a.md", "semantic/b.md", "semantic/a.md"};
  events[1].date = Date(2026, 11, 22);
  events[1].files = {"semantic/a.md"};
  events[2].kind = usage::EventKind::feedback;
  events[2].date = Date(2026, 11, 21);
  events[2].files = {"semantic/a.md"};
  events[2].helpful = true;
  events[3].kind = usage::EventKind::feedback;
  events[3].date = Date(2026, 11, 19);
  events[3].files = {"semantic/b.md"};
  const auto tallies = usage::tally(events);
  REQUIRE(tallies.size() == 2);
  const auto& a = tallies.at("semantic/a.md");
  CHECK(a.uses == 2); // named twice by one recall: counted once
  CHECK(a.helpful == 1);
  CHECK(a.unhelpful == 0);
  CHECK(a.last == Date(2026, 11, 22));
  const auto& b = tallies.at("semantic/b.md");
  CHECK(b.uses == 1);
  CHECK(b.unhelpful == 1);
  CHECK(b.last == Date(2026, 11, 20));
}
