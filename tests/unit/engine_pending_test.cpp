// engine::Pending: the working state of an interrupted change is written
// whole, read back exactly, cleared, and never guessed at when unreadable.
#include "base/json_text.hpp"
#include "engine/pending.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using engram::engine::Pending;
using engram::engine::PendingFile;
using engram::test::TempDir;
using engram::test::write_file;
namespace engine = engram::engine;

namespace {

// A pending consolidation with a write, a new file and a removal.
Pending sample() {
  Pending pending;
  pending.operation = "consolidate";
  pending.head = std::string(40, 'a');
  pending.message = "consolidate(full): 1 claim absorbed\n\n- x \"é\"\n\nEngram-Run: full\n";
  pending.record = R"({"actions":[{"claim":"x \"é\""}],"run":"full"})";
  pending.files = {PendingFile{"semantic/a.md", std::string(40, 'b'), std::string(40, 'c')},
                   PendingFile{"semantic/new.md", std::nullopt, std::string(40, 'd')},
                   PendingFile{"episodic/old.md", std::string(40, 'e'), std::nullopt}};
  return pending;
}

} // namespace

TEST_CASE("a pending change is written to .engram/pending.json and read back exactly") {
  const TempDir dir;
  const engram::store::Layout layout;
  CHECK_FALSE(engine::read_pending(dir.path(), layout).has_value());
  engine::write_pending(dir.path(), layout, sample());
  CHECK(engine::pending_path(dir.path(), layout) == dir / ".engram" / "pending.json");
  // Written in parts, the record not copied: the file is the text, one line.
  CHECK(engram::test::read_file(dir / ".engram" / "pending.json") ==
        engine::pending_text(sample()) + "\n");
  const auto read = engine::read_pending(dir.path(), layout);
  REQUIRE(read.has_value());
  CHECK(*read == sample());

  engine::clear_pending(dir.path(), layout);
  CHECK_FALSE(fs::exists(dir / ".engram" / "pending.json"));
  CHECK_FALSE(engine::read_pending(dir.path(), layout).has_value());
  engine::clear_pending(dir.path(), layout); // clearing twice is harmless
}

TEST_CASE("the working state is the JSON nlohmann writes, the record spliced in as it is") {
  for (auto pending :
       {sample(), Pending{"rollback", std::nullopt, "Rollback\n", "", {}, std::nullopt},
        Pending{"sync", std::nullopt, "sync: merge\n", "", {}, std::string(40, 'a')}}) {
    const std::string text = engine::pending_text(pending);
    const auto json = nlohmann::json::parse(text);
    CHECK(engram::json_text(json) == text);
    CHECK(engine::pending_from_json(json) == pending);
    CHECK(json.at("record").is_null() == pending.record.empty());
  }
  auto odd = sample();
  odd.message = "not UTF-8: \xff";
  CHECK(nlohmann::json::parse(engine::pending_text(odd)).at("message") ==
        "not UTF-8: \xef\xbf\xbd");
}

TEST_CASE("an unreadable pending change is an error naming the file, never ignored") {
  const TempDir dir;
  const engram::store::Layout layout;
  write_file(dir / ".engram" / "pending.json", "{\"version\": 1, \"operation\": ");
  CHECK_THROWS_WITH(engine::read_pending(dir.path(), layout),
                    Catch::Contains("pending.json") && Catch::Contains("will not guess"));
  write_file(dir / ".engram" / "pending.json", "{\"version\": 99}");
  CHECK_THROWS_WITH(engine::read_pending(dir.path(), layout), Catch::Contains("version 99"));
}
