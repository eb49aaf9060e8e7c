// Pointer lines in an agent's own index: links are read as written, new
// lines fit under the loader's limits, and what does not fit goes to the
// overflow, from the end, with room kept for the line that links it.
#include "../../rules/index/pointers.hpp"

#include <catch2/catch.hpp>

using engram_index::fit_pointers;
using engram_index::linked_targets;

TEST_CASE("linked_targets reads every Markdown link's file") {
  const auto found =
      linked_targets("- [A](a.md) — x\n- [B](./b.md)\ntext [c](semantic/c.md) and (d.md)\n");
  CHECK(found == std::set<std::string>{"a.md", "b.md", "semantic/c.md"});
}

TEST_CASE("new pointer lines are appended while the index fits") {
  const auto plan = fit_pointers({"- [A](a.md)", "- [B](b.md)"}, {{"c.md", "- [C](c.md)"}}, 200,
                                 25600, "- [More](memory_overflow.md)", false);
  CHECK(plan.index == std::vector<std::string>{"- [A](a.md)", "- [B](b.md)", "- [C](c.md)"});
  CHECK(plan.overflow.empty());
  CHECK(plan.linked == std::vector<std::string>{"c.md"});
  CHECK(plan.moved == 0);
}

TEST_CASE("past the line limit, new lines overflow and the index links the overflow") {
  const std::vector<std::string> lines(3, "- [x](x.md)");
  const auto plan = fit_pointers(
      lines, {{"c.md", "- [C](c.md)"}, {"d.md", "- [D](d.md)"}, {"e.md", "- [E](e.md)"}}, 5, 0,
      "- [More](memory_overflow.md)", false);
  REQUIRE(plan.index.size() == 5); // 3 + C + the overflow's line
  CHECK(plan.index[3] == "- [C](c.md)");
  CHECK(plan.index.back() == "- [More](memory_overflow.md)");
  CHECK(plan.overflow == std::vector<std::string>{"- [D](d.md)", "- [E](e.md)"});
  CHECK(plan.linked == std::vector<std::string>{"c.md"});
  CHECK(plan.overflowed == std::vector<std::string>{"d.md", "e.md"});
  CHECK(plan.moved == 0);
}

TEST_CASE("an agent's index already past the limit moves its unread tail, not its head") {
  std::vector<std::string> lines;
  for (int i = 0; i < 6; ++i) {
    lines.push_back("- [" + std::to_string(i) + "](" + std::to_string(i) + ".md)");
  }
  const auto plan = fit_pointers(lines, {}, 4, 0, "- [More](memory_overflow.md)", false);
  CHECK(plan.index == std::vector<std::string>{"- [0](0.md)", "- [1](1.md)", "- [2](2.md)",
                                               "- [More](memory_overflow.md)"});
  CHECK(plan.overflow == std::vector<std::string>{"- [3](3.md)", "- [4](4.md)", "- [5](5.md)"});
  CHECK(plan.moved == 3);
}

TEST_CASE("the byte limit counts too, and a linked overflow needs no second line") {
  const std::vector<std::string> lines{"0123456789", "0123456789"}; // 22 bytes with line ends
  const auto plan =
      fit_pointers(lines, {{"c.md", "abcdefghij"}}, 0, 25, "- [More](memory_overflow.md)", true);
  CHECK(plan.index == lines);
  CHECK(plan.overflow == std::vector<std::string>{"abcdefghij"});
}
