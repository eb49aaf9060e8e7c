// StoreView's helpers on a host without an index: each must give what its
// definition (engram::definition) says, computed from the core alone, since
// that is what a plugin sees in any host that offers no StoreIndex.
#include "engram/rule.hpp"
#include "engram/text.hpp"

#include <catch2/catch.hpp>
#include <map>

using namespace engram;

namespace {

// A Language for the test: a claim a line, equal texts duplicates, texts of
// the same first word updates.
class LineLanguage final : public Language {
public:
  std::vector<Claim> claims(std::string_view body) const override {
    std::vector<Claim> out;
    for (const auto& line : text::split_lines(body)) {
      out.push_back(Claim{std::string(text::without_eol(line)), "", "",
                          line.starts_with("S") ? ClaimKind::solution : ClaimKind::reference});
    }
    return out;
  }
  ClaimKind classify(std::string_view) const override { return ClaimKind::reference; }
  Relation compare(std::string_view incoming, std::string_view existing) const override {
    if (incoming == existing) {
      return Relation::duplicate;
    }
    return incoming.substr(0, incoming.find(' ')) == existing.substr(0, existing.find(' '))
               ? Relation::update
               : Relation::distinct;
  }
  std::string normalise(std::string_view text) const override { return text::lower(text); }
  std::string canonical_tag(std::string_view tag) const override { return std::string(tag); }
  std::string slug(std::string_view text) const override { return std::string(text); }
};

// Files as bodies (no frontmatter but a `created:` field map), no index.
class MapStore final : public StoreView {
public:
  std::map<std::string, std::string, std::less<>> bodies;
  std::map<std::string, std::string, std::less<>> created;

  Date today() const override { return Date(2026, 11, 22); }
  std::string store_name() const override { return "map"; }
  RunKind run_kind() const override { return RunKind::full; }
  std::optional<Setting> setting(std::string_view) const override { return std::nullopt; }
  std::string layer_path(Layer) const override { return "semantic"; }
  std::vector<std::string> files(Layer) const override {
    std::vector<std::string> out;
    for (const auto& [path, body] : bodies) {
      out.push_back(path);
    }
    return out;
  }
  bool exists(std::string_view path) const override { return bodies.contains(path); }
  bool held(std::string_view path) const override { return path == "semantic/held.md"; }
  std::string read(std::string_view path) const override { return body(path); }
  const std::string& body(std::string_view path) const override {
    static const std::string k_none;
    const auto it = bodies.find(path);
    return it == bodies.end() ? k_none : it->second;
  }
  std::optional<std::string> field(std::string_view path, std::string_view key) const override {
    const auto it = created.find(path);
    return key == "created" && it != created.end() ? std::optional(it->second) : std::nullopt;
  }
  std::vector<std::string> list(std::string_view, std::string_view) const override { return {}; }
  std::optional<Date> decay_date(std::string_view) const override { return std::nullopt; }
  void write(std::string_view path, std::string bytes) override {
    bodies[std::string(path)] = std::move(bytes);
  }
  void set_field(std::string_view, std::string_view, std::string_view) override {}
  void set_list(std::string_view, std::string_view, const std::vector<std::string>&) override {}
  void set_body(std::string_view path, std::string body) override { write(path, std::move(body)); }
  void remove(std::string_view path) override { bodies.erase(std::string(path)); }
  void record(Action) override {}
  void diagnose(std::string_view, int, std::string) override {}
  const Language& language() const override { return m_language; }

private:
  LineLanguage m_language;
};

} // namespace

TEST_CASE("without an index, the related claims are every non-distinct claim of unheld files") {
  MapStore store;
  store.bodies = {{"semantic/a.md", "port is 80\ncolour blue\n"},
                  {"semantic/b.md", "port is 81\n"},
                  {"semantic/held.md", "port is 80\n"}};
  const auto related = store.related_claims("port is 80", Layer::semantic);
  REQUIRE(related.size() == 2);
  CHECK(related[0].path == "semantic/a.md");
  CHECK(related[0].relation == Relation::duplicate);
  CHECK(related[0].kind == ClaimKind::reference);
  CHECK(related[1].path == "semantic/b.md");
  CHECK(related[1].relation == Relation::update);
  const auto duplicates = store.duplicate_claims("port is 80", Layer::semantic);
  REQUIRE(duplicates.size() == 1);
  CHECK(duplicates[0].path == "semantic/a.md");
  const auto each = store.related_claims_each({"port is 80", "colour red"}, Layer::semantic,
                                              ClaimDetail::unclassified);
  REQUIRE(each.size() == 2);
  CHECK(each[0].size() == 2);
  CHECK(each[0][0].kind == ClaimKind::factual);
  REQUIRE(each[1].size() == 1);
  CHECK(each[1][0].text == "colour blue");
}

TEST_CASE("without an index, claims_of splits the body and unclassified keeps solutions") {
  MapStore store;
  store.bodies = {{"semantic/a.md", "Solution x\nport is 80\n"}};
  const auto claims = store.claims_of("semantic/a.md", ClaimDetail::unclassified);
  REQUIRE(claims.size() == 2);
  CHECK(claims[0].kind == ClaimKind::solution);
  CHECK(claims[1].kind == ClaimKind::factual);
  CHECK(store.claims_of("semantic/a.md")[1].kind == ClaimKind::reference);
}

TEST_CASE("without an index, hashes follow the bytes and nothing can say what changed") {
  MapStore store;
  store.bodies = {{"semantic/a.md", ""}, {"semantic/b.md", "x\n"}};
  CHECK_FALSE(store.content_hash("semantic/a.md").empty());
  CHECK(store.content_hash("semantic/gone.md").empty());
  const auto before = store.content_hash("semantic/b.md");
  store.replace_in_body("semantic/b.md", 0, 0, "w\n");
  CHECK(store.body("semantic/b.md") == "w\nx\n");
  CHECK(store.content_hash("semantic/b.md") != before);
  CHECK(store.revision() == 0);
  CHECK_FALSE(store.changed_since(0));
  CHECK_FALSE(store.modified("semantic/a.md"));
  CHECK_FALSE(store.layer_of("semantic/a.md"));
  CHECK(store.index() == nullptr);
}

TEST_CASE("a date field is read from the scalar field as the host reads dates") {
  MapStore store;
  store.bodies = {{"semantic/a.md", ""}, {"semantic/b.md", ""}, {"semantic/c.md", ""}};
  store.created = {{"semantic/a.md", "2026-07-04"},
                   {"semantic/b.md", "2026-07-04T09:30:00Z"},
                   {"semantic/c.md", "July"}};
  CHECK(store.date("semantic/a.md", "created") == Date(2026, 7, 4));
  CHECK(store.date("semantic/b.md", "created") == Date(2026, 7, 4));
  CHECK_FALSE(store.date("semantic/c.md", "created"));
  CHECK_FALSE(store.date("semantic/a.md", "decay-after"));
  CHECK(store.normalise("Port") == "port");
}
