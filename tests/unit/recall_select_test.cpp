#include "lib/temp_dir.hpp"
#include "recall/select.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace engram;

TEST_CASE("selection keeps the best memories that fit the budget and skips what is gone") {
  test::TempDir dir;
  test::write_file(dir / "semantic/big.md", std::string(500, 'b'));
  test::write_file(dir / "semantic/small.md", "small\n");
  test::write_file(dir / "semantic/other.md", "other\n");
  const auto json = nlohmann::json{{"entries",
                                    {{{"path", "semantic/big.md"}, {"tags", {"x"}}},
                                     {{"path", "semantic/gone.md"}, {"tags", {"x"}}},
                                     {{"path", "semantic/small.md"}, {"tags", {"x"}}},
                                     {{"path", "semantic/other.md"}, {"tags", {"x"}}}}}}
                        .dump();
  auto index = recall::RecallIndex::parse(recall::RecallIndex::build(json, {}, store::Layout{}));
  REQUIRE(index);
  const std::vector<recall::Candidate> ranked{{0, 4, {}}, {1, 3, {}}, {2, 2, {}}, {3, 1, {}}};

  const auto block = recall::context_block("semantic/small.md", "small\n");
  CHECK(block == "### semantic/small.md\n\nsmall\n\n");
  const auto fits = recall::select(*index, ranked, dir.path(), {10, 100, 1 << 20});
  REQUIRE(fits.memories.size() == 2);
  CHECK(fits.memories[0].path == "semantic/small.md");
  CHECK(fits.memories[1].path == "semantic/other.md");
  CHECK(fits.chars <= 100);
  CHECK(fits.chars == fits.memories[0].chars + fits.memories[1].chars);
  REQUIRE(fits.unreadable.size() == 1);
  CHECK(fits.unreadable[0].starts_with("semantic/gone.md: "));

  const auto one = recall::select(*index, ranked, dir.path(), {1, 100000, 1 << 20});
  REQUIRE(one.memories.size() == 1);
  CHECK(one.memories[0].path == "semantic/big.md");
}
