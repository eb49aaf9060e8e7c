// Guards: each guarded file measured in its unit, and CORE.md measured the
// way the promotion rule writes it — a document rendered by the rule reads
// back as exactly its truths and its blocks' characters.
#include "../../rules/promotion/core_blocks.hpp"
#include "../../rules/promotion/core_file.hpp"
#include "engine/guards.hpp"

#include <catch2/catch.hpp>

using namespace engram;

namespace {

const store::Layout k_layout;

std::vector<engine::GuardReading> guards_of(std::string_view path,
                                            const std::optional<std::string>& bytes) {
  return engine::read_guards(path, bytes, k_layout, config::Settings::defaults());
}

} // namespace

TEST_CASE("WORKING.md is measured in characters and MEMORY.md in lines") {
  const auto working = guards_of("WORKING.md", std::string("- café\n- tea\n"));
  REQUIRE(working.size() == 1);
  CHECK(working[0].name == "working");
  CHECK(working[0].unit == "chars");
  CHECK(working[0].size == 13); // code points, newlines included
  CHECK(working[0].limit == 3000);
  CHECK(working[0].present);
  CHECK_FALSE(working[0].over());

  const auto index = guards_of("MEMORY.md", std::string("a\nb\nc"));
  REQUIRE(index.size() == 1);
  CHECK(index[0].unit == "lines");
  CHECK(index[0].size == 3); // a last line without a newline counts
  CHECK(index[0].limit == 200);
}

TEST_CASE("a missing guarded file reads as absent and empty, and other files have no guard") {
  const auto core = guards_of("CORE.md", std::nullopt);
  REQUIRE(core.size() == 2);
  for (const auto& reading : core) {
    CHECK_FALSE(reading.present);
    CHECK(reading.size == 0);
    CHECK_FALSE(reading.over());
  }
  CHECK(guards_of("semantic/notes.md", std::string("- x\n")).empty());
  CHECK(engine::guarded_paths(k_layout) ==
        std::vector<std::string>{"WORKING.md", "MEMORY.md", "CORE.md"});
}

TEST_CASE("CORE.md as the promotion rule renders it measures its own truths and block sizes") {
  promotion::Evidence evidence;
  evidence.add({Date(2026, 11, 1), "episodic/a.md"});
  evidence.add({Date(2026, 11, 9), "episodic/b.md"});
  promotion::CoreDocument doc;
  doc.cap = 3;
  doc.truths = {{"Deploys need the VPN.", evidence},
                {"- A truth that starts like an item.", evidence},
                {"Tests run in CI — ünïcode too.", evidence}};
  doc.held_back = {{"Held back, a comment only.", evidence}};
  doc.not_kept = 4;
  std::vector<promotion::BlockInput> inputs;
  for (const char* name : {"user_profile", "project_context"}) {
    std::vector<std::string> items;
    for (int i = 0; i < 9; ++i) {
      items.push_back(std::string(name) + " item " + std::to_string(i) + " — enough words to fill.");
    }
    inputs.push_back({name, items});
  }
  doc.blocks = promotion::pack_blocks(inputs, 300, 500);
  std::size_t chars = 0;
  for (const auto& block : doc.blocks) {
    chars += block.chars;
  }
  const auto measured = engine::measure_core(promotion::render_core(doc));
  CHECK(measured.truths == 3);
  CHECK(measured.block_chars == chars);

  // With CRLF line endings (an editor's save), the same.
  std::string crlf;
  for (const char c : promotion::render_core(doc)) {
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  }
  CHECK(engine::measure_core(crlf).truths == 3);
  CHECK(engine::measure_core(crlf).block_chars == chars);
}

TEST_CASE("CORE.md past a guard reads as over it") {
  std::string core = "# Core memory\n\n## Deep Truths\n\n";
  for (int i = 0; i < 11; ++i) {
    core += "- Truth " + std::to_string(i) + "\n";
  }
  const auto readings = guards_of("CORE.md", core);
  REQUIRE(readings.size() == 2);
  CHECK(readings[0].name == "core_truths");
  CHECK(readings[0].size == 11);
  CHECK(readings[0].over());
  CHECK(readings[1].name == "core_blocks");
  CHECK(readings[1].size == 0);
  CHECK_FALSE(readings[1].over());
}
