// Store history: a note's record counted by verb, stopping where the record
// ends and the deferred files begin.
#include "engine/store_history.hpp"

#include <catch2/catch.hpp>

using engram::engine::count_actions;

TEST_CASE("a note's actions are counted by verb") {
  const std::string note =
      "- episodic-decay absorbed \"Raise the page size.\": episodic/a.md → semantic/b.md (new)\n"
      "- episodic-decay absorbed \"Use WAL.\": episodic/a.md → procedural/feedback.md\n"
      "- episodic-decay decayed: episodic/a.md (expired 2026-08-02)\n"
      "- contradictions superseded \"page 50\": semantic/b.md (newer value)\n";
  const std::map<std::string, std::size_t> expected{
      {"absorbed", 2}, {"decayed", 1}, {"superseded", 1}};
  CHECK(count_actions(note) == expected);
}

TEST_CASE("the deferred files after a note's record are not counted as actions") {
  const std::string note = "- index rebuilt: MEMORY.md\n"
                           "\nDeferred to the next run (changed while engram worked):\n"
                           "- semantic/x.md\n";
  CHECK(count_actions(note) == std::map<std::string, std::size_t>{{"rebuilt", 1}});
  CHECK(count_actions("").empty());
}
