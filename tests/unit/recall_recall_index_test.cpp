#include "base/mapped_file.hpp"
#include "base/regular_file.hpp"
#include "lib/temp_dir.hpp"
#include "recall/keywords.hpp"
#include "recall/recall_index.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <stdexcept>

using namespace engram;
namespace fs = std::filesystem;

namespace {

// An .index.json entry as the index rule writes it.
nlohmann::json entry(const std::string& path, std::vector<std::string> tags,
                     std::vector<std::string> trigger, const std::string& summary,
                     const std::string& status = "confirmed",
                     std::vector<std::string> related = {}) {
  return {{"path", path},       {"type", path.substr(0, path.find('/'))},
          {"tags", tags},       {"trigger", trigger},
          {"summary", summary}, {"status", status},
          {"salience", "high"}, {"created", "2026-11-01"},
          {"related", related}};
}

// The index text for `entries`.
std::string index_of(const std::vector<nlohmann::json>& entries) {
  return nlohmann::json{{"version", 1}, {"entries", entries}}.dump(2);
}

} // namespace

TEST_CASE("keywords are canonical words without stopwords") {
  CHECK(recall::keywords_of("The Scrapers are failing on the API") ==
        std::vector<std::string>{"api", "fail", "scrap"});
  CHECK(recall::keywords_of("a the of").empty());
  CHECK(recall::tag_keywords("command-not-found") ==
        std::vector<std::string>{"command", "found", "not"});
}

TEST_CASE("the recall index keeps what ranking needs and leaves out what recall never returns") {
  const std::string json = index_of(
      {entry("semantic/pip.md", {"python"}, {"command-not-found"},
             "Scripts go to the user folder."),
       entry("semantic/old.md", {"python"}, {}, "Old.", "superseded"),
       entry("WORKING.md", {}, {}, "Now."),
       entry("semantic/tax.md", {"vat"}, {}, "VAT is 20 percent.", "confirmed", {"pip"}),
       entry("semantic/bill.md", {"billing"}, {}, "Bills.", "confirmed", {"semantic/tax.md"})});
  const recall::SourceStamp stamp{1, 2, 3};
  auto index = recall::RecallIndex::parse(recall::RecallIndex::build(json, stamp, store::Layout{}));
  REQUIRE(index);
  CHECK(index->source() == stamp);
  REQUIRE(index->size() == 3);
  CHECK(index->entry(0).path == "semantic/pip.md");
  CHECK(index->entry(0).salience == 3);
  CHECK(index->entry(0).created == Date(2026, 11, 1));

  const auto found = index->postings("found");
  REQUIRE(found.size() == 1);
  CHECK(found[0].first == 0);
  CHECK(found[0].second == recall::k_match_trigger);
  const auto python = index->postings("python");
  REQUIRE(python.size() == 1); // not the superseded one
  CHECK(python[0].second == recall::k_match_tag);
  CHECK(index->postings("script").size() == 1);
  CHECK(index->postings("script")[0].second == recall::k_match_summary);
  CHECK(index->postings("now").empty());
  // `related` by store path, and by name from the file's folder.
  CHECK(index->related(2) == std::vector<std::uint32_t>{1});
  CHECK(index->related(1) == std::vector<std::uint32_t>{0});
}

TEST_CASE("a recall index in another format, or torn, is refused") {
  CHECK(!recall::RecallIndex::parse(""));
  CHECK(!recall::RecallIndex::parse("engram-recall\t3\t1\t2\t3\n"));
  // Version 1 listed the files an agent loads whole: such an index is made again.
  CHECK(!recall::RecallIndex::parse("engram-recall\t1\t1\t2\t3\n"));
  CHECK(!recall::RecallIndex::parse("engram-recall\t2\t1\t2\t3\nE\tsemantic/a.md\t2"));
  CHECK(!recall::RecallIndex::parse("engram-recall\t2\t1\t2\t3\nW\tb\t0:1\nW\ta\t0:1\n"));
  CHECK(recall::RecallIndex::parse("engram-recall\t2\t1\t2\t3\n"));
}

TEST_CASE("the store's recall index is rebuilt when .index.json changes, and only then") {
  test::TempDir dir;
  const store::Layout layout;
  CHECK(!recall::load(dir.path(), layout));
  test::write_file(dir / ".index.json", index_of({entry("semantic/a.md", {"alpha"}, {}, "A.")}));
  const auto first = recall::load(dir.path(), layout);
  REQUIRE(first);
  CHECK(first->postings("alpha").size() == 1);
  CHECK(fs::exists(recall::index_path(dir.path(), layout)));
  CHECK(!recall::refresh(dir.path(), layout));

  test::write_file(dir / ".index.json.new",
                   index_of({entry("semantic/b.md", {"beta"}, {}, "B."),
                             entry("semantic/a.md", {"alpha"}, {}, "A.")}));
  fs::rename(dir / ".index.json.new", dir / ".index.json");
  CHECK(recall::refresh(dir.path(), layout));
  const auto second = recall::load(dir.path(), layout);
  REQUIRE(second);
  CHECK(second->postings("beta").size() == 1);
  CHECK(second->size() == 2);

  test::write_file(dir / ".index.json", "{ not json");
  CHECK_THROWS(recall::load(dir.path(), layout));
}

TEST_CASE("a recall index an older engram made is made again, though .index.json is unchanged") {
  test::TempDir dir;
  const store::Layout layout;
  test::write_file(dir / ".index.json", index_of({entry("semantic/a.md", {"alpha"}, {}, "A.")}));
  REQUIRE(recall::load(dir.path(), layout));
  const auto path = recall::index_path(dir.path(), layout);
  auto bytes = test::read_file(path);
  REQUIRE(bytes.starts_with("engram-recall\t2\t"));
  bytes[std::string_view("engram-recall\t").size()] = '1';
  test::write_file(path, bytes);
  CHECK(recall::refresh(dir.path(), layout));
  CHECK(test::read_file(path).starts_with("engram-recall\t2\t"));
  CHECK(!recall::refresh(dir.path(), layout));
}

TEST_CASE("records made before .index.json was written are used only when it holds their bytes") {
  test::TempDir dir;
  const store::Layout layout;
  const auto planned = index_of({entry("semantic/a.md", {"alpha"}, {}, "A.")});
  // Records of another index stand in for the prepared ones, so that the
  // saved index shows which were used.
  const auto other = index_of({entry("semantic/b.md", {"beta"}, {}, "B.")});
  const recall::Prepared prepared{planned, recall::RecallIndex::records(other, layout)};
  const auto saved = [&] { return test::read_file(recall::index_path(dir.path(), layout)); };

  test::write_file(dir / ".index.json", planned);
  CHECK(recall::refresh(dir.path(), layout, &prepared));
  const auto stamp = recall::stamp_of(dir / ".index.json");
  REQUIRE(stamp);
  CHECK(saved() == recall::RecallIndex::stamped(*stamp, prepared.records));
  CHECK(!recall::refresh(dir.path(), layout, &prepared)); // up to date: nothing made

  // Changed after it was planned: built from what the file holds.
  const auto changed = index_of({entry("semantic/c.md", {"gamma"}, {}, "C.")});
  test::write_file(dir / ".index.json.new", changed);
  fs::rename(dir / ".index.json.new", dir / ".index.json");
  CHECK(recall::refresh(dir.path(), layout, &prepared));
  const auto now = recall::stamp_of(dir / ".index.json");
  REQUIRE(now);
  CHECK(saved() == recall::RecallIndex::build(changed, *now, layout));
  const auto index = recall::load(dir.path(), layout);
  REQUIRE(index);
  CHECK(index->postings("gamma").size() == 1);
  CHECK(index->postings("beta").empty());
}

TEST_CASE("build is the stamp's header followed by the records") {
  const store::Layout layout;
  const auto json = index_of({entry("semantic/a.md", {"alpha"}, {"first-run"}, "A summary.")});
  const recall::SourceStamp stamp{10, 20, 30};
  const auto records = recall::RecallIndex::records(json, layout);
  CHECK(records.starts_with("E\tsemantic/a.md\t"));
  CHECK(recall::RecallIndex::build(json, stamp, layout) ==
        "engram-recall\t2\t10\t20\t30\n" + records);
}

TEST_CASE("a recall index read from its mapped file is the one its text gives") {
  test::TempDir dir;
  const store::Layout layout;
  const auto json =
      index_of({entry("semantic/a.md", {"alpha"}, {}, "A."),
                entry("semantic/b.md", {"beta"}, {"alpha-run"}, "B.", "confirmed", {"a"})});
  const auto text = recall::RecallIndex::build(json, {4, 5, 6}, layout);
  test::write_file(dir / "recall.idx", text);
  RegularFile::Failure failure{};
  const auto file = RegularFile::open(dir / "recall.idx", failure);
  REQUIRE(file);
  auto mapped = MappedFile::map(*file, text.size());
  REQUIRE(mapped);
  const auto from_file = recall::RecallIndex::parse(std::move(*mapped));
  const auto from_text = recall::RecallIndex::parse(text);
  REQUIRE(from_file);
  REQUIRE(from_text);
  CHECK(from_file->source() == from_text->source());
  REQUIRE(from_file->size() == 2);
  for (std::uint32_t i = 0; i < 2; ++i) {
    CHECK(from_file->entry(i).path == from_text->entry(i).path);
    CHECK(from_file->entry(i).related == from_text->entry(i).related);
  }
  CHECK(from_file->entry(1).related == "0");
  CHECK(from_file->postings("alpha") == from_text->postings("alpha"));
  CHECK(from_file->postings("alpha").size() == 2);
  CHECK_THROWS_AS(from_file->entry(2), std::out_of_range);

  // A torn file (no final newline) is refused, mapped as read.
  test::write_file(dir / "torn.idx", text.substr(0, text.size() - 1));
  const auto torn = RegularFile::open(dir / "torn.idx", failure);
  REQUIRE(torn);
  auto torn_mapped = MappedFile::map(*torn, text.size());
  REQUIRE(torn_mapped);
  CHECK(!recall::RecallIndex::parse(std::move(*torn_mapped)));
}
