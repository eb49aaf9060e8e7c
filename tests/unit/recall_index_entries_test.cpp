#include "base/error.hpp"
#include "recall/index_entries.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using engram::recall::IndexEntry;
using engram::recall::read_index_entries;

namespace {

// What a parsed JSON document says an entry holds: the reference the stream
// reader must agree with (a field that is not a string is "", a list keeps
// its string items).
std::string text_of(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> strings_of(const nlohmann::json& object, const char* key) {
  std::vector<std::string> out;
  const auto it = object.find(key);
  if (it != object.end() && it->is_array()) {
    for (const auto& item : *it) {
      if (item.is_string()) {
        out.push_back(item.get<std::string>());
      }
    }
  }
  return out;
}

std::vector<IndexEntry> from_document(const std::string& text) {
  std::vector<IndexEntry> out;
  const auto document = nlohmann::json::parse(text);
  for (const auto& e : document.at("entries")) {
    if (!e.is_object()) {
      continue;
    }
    out.push_back(IndexEntry{text_of(e, "path"), text_of(e, "type"), text_of(e, "salience"),
                             text_of(e, "status"), text_of(e, "created"), text_of(e, "summary"),
                             strings_of(e, "tags"), strings_of(e, "trigger"),
                             strings_of(e, "related")});
  }
  return out;
}

void same(const std::vector<IndexEntry>& got, const std::vector<IndexEntry>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("entry " << i);
    CHECK(got[i].path == want[i].path);
    CHECK(got[i].type == want[i].type);
    CHECK(got[i].salience == want[i].salience);
    CHECK(got[i].status == want[i].status);
    CHECK(got[i].created == want[i].created);
    CHECK(got[i].summary == want[i].summary);
    CHECK(got[i].tags == want[i].tags);
    CHECK(got[i].trigger == want[i].trigger);
    CHECK(got[i].related == want[i].related);
  }
}

} // namespace

TEST_CASE("the entries of .index.json read as a stream agree with the parsed document") {
  const std::string text = GENERATE(
      as<std::string>{},
      // As the index rule writes it.
      R"({"version": 1, "generated": "2026-11-24", "entries": [
          {"path": "semantic/a.md", "filename": "a.md", "type": "semantic", "tags": ["x", "y"],
           "salience": "high", "confidence": null, "created": "2026-01-02", "summary": "The a.",
           "related": ["b"], "project": null, "status": "confirmed", "trigger": ["go"], "hash": "1"},
          {"path": "episodic/b.md", "type": "episodic", "tags": [], "salience": null,
           "summary": "", "related": [], "status": null, "trigger": []}]})",
      // Fields of the wrong kind: numbers, objects and lists where text goes, text and objects
      // where lists go, non-strings and nested lists inside lists.
      R"({"entries": [{"path": 7, "type": ["semantic"], "salience": {"high": true},
          "summary": null, "created": false, "tags": "x", "trigger": {"a": ["b"]},
          "related": [1, "r", ["s"], {"t": "u"}, null, "v"]}]})",
      // A key twice in one entry: the later counts, whatever its kind.
      R"({"entries": [{"path": "a.md", "path": "b.md", "tags": ["x"], "tags": 3,
          "summary": "first", "summary": ["no"], "trigger": "no", "trigger": ["yes"]}]})",
      // Items of the list that are not objects; objects and lists nested in unknown fields.
      R"({"entries": [1, "two", null, [{"path": "nested.md"}],
          {"path": "c.md", "extra": {"path": "not me", "tags": ["no"]}, "more": [[{"path": "no"}]]},
          {}]})",
      // Other top-level keys around the list, with entry-like objects of their own.
      R"({"before": [{"path": "not an entry"}], "entries": [{"path": "d.md"}],
          "after": {"entries": [{"path": "inner"}]}})",
      // "entries" twice: the later list counts.
      R"({"entries": [{"path": "old.md"}], "entries": [{"path": "new.md"}]})",
      // Text with escapes and non-ASCII.
      R"({"entries": [{"path": "semantic/\u00e9t\u00e9 \"q\".md", "summary": "tab\there\nnewline",
          "tags": ["caf\u00e9", "\ud83d\ude00"]}]})",
      // No entries at all.
      R"({"entries": []})");
  INFO(text);
  same(read_index_entries(text, ".index.json"), from_document(text));
}

TEST_CASE("an .index.json that is not JSON, or has no entries list, is an error naming it") {
  const std::string text =
      GENERATE(as<std::string>{}, "", "{", R"({"entries": [}]})", R"({"entries": []} trailing)",
               "[]", "3", R"({"version": 1})", R"({"entries": {"path": "a.md"}})",
               R"({"entries": "none"})", R"({"entries": [], "entries": null})");
  INFO(text);
  CHECK_THROWS_WITH(read_index_entries(text, "store/.index.json"),
                    Catch::StartsWith("store/.index.json: "));
}
