#include "recall/keywords.hpp"
#include "recall/rank.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace engram;

namespace {

// A recall index of `entries` (.index.json entries).
recall::RecallIndex index_of(const std::vector<nlohmann::json>& entries) {
  const auto json = nlohmann::json{{"entries", entries}}.dump();
  auto index =
      recall::RecallIndex::parse(recall::RecallIndex::build(json, {}, store::Layout{}));
  REQUIRE(index);
  return std::move(*index);
}

// The paths of `ranked`, in order.
std::vector<std::string> paths(const recall::RecallIndex& index,
                               const std::vector<recall::Candidate>& ranked) {
  std::vector<std::string> out;
  for (const auto& candidate : ranked) {
    out.emplace_back(index.entry(candidate.entry).path);
  }
  return out;
}

const Date k_today(2026, 11, 22);

} // namespace

TEST_CASE("a trigger word counts twice what a tag does, and a tag more than the summary") {
  const auto index = index_of({
      {{"path", "semantic/tag.md"}, {"tags", {"deploy"}}, {"summary", "x"}},
      {{"path", "semantic/trigger.md"}, {"trigger", {"deploy"}}, {"summary", "y"}},
      {{"path", "semantic/summary.md"}, {"summary", "How we deploy."}},
  });
  const auto ranked = recall::rank(index, recall::keywords_of("deploy"), k_today);
  CHECK(paths(index, ranked) ==
        std::vector<std::string>{"semantic/trigger.md", "semantic/tag.md", "semantic/summary.md"});
  CHECK(ranked[0].score == Approx(2 * ranked[1].score));
  CHECK(ranked[1].score == Approx(2 * ranked[2].score));
}

TEST_CASE("salience multiplies the score, and recent episodic memories get a small bonus") {
  const auto index = index_of({
      {{"path", "semantic/low.md"}, {"tags", {"cache"}}, {"salience", "low"}},
      {{"path", "semantic/high.md"}, {"tags", {"cache"}}, {"salience", "high"}},
      {{"path", "episodic/2026-11-20-cache.md"}, {"type", "episodic"}, {"tags", {"cache"}},
       {"salience", "low"}, {"created", "2026-11-20"}},
      {{"path", "episodic/2026-01-01-cache.md"}, {"type", "episodic"}, {"tags", {"cache"}},
       {"salience", "low"}, {"created", "2026-01-01"}},
  });
  const auto ranked = recall::rank(index, {"cach"}, k_today);
  REQUIRE(ranked.size() == 4);
  CHECK(paths(index, ranked)[0] == "semantic/high.md");
  CHECK(ranked[0].score == Approx(3 * 2));
  CHECK(paths(index, ranked)[1] == "episodic/2026-11-20-cache.md");
  CHECK(ranked[1].score > 2);
  CHECK(ranked[1].score < 2 * 1.25 + 1e-9);
  // An old episodic memory and a low semantic one tie; the path decides.
  CHECK(ranked[2].score == Approx(ranked[3].score));
  CHECK(paths(index, ranked)[2] < paths(index, ranked)[3]);
}

TEST_CASE("related memories follow their match one hop, at half its score") {
  const auto index = index_of({
      {{"path", "semantic/a.md"}, {"tags", {"billing"}}, {"related", {"semantic/b.md"}}},
      {{"path", "semantic/b.md"}, {"tags", {"tax"}}, {"related", {"semantic/c.md"}}},
      {{"path", "semantic/c.md"}, {"tags", {"vat"}}},
  });
  const auto ranked = recall::rank(index, {"bill"}, k_today);
  REQUIRE(paths(index, ranked) == std::vector<std::string>{"semantic/a.md", "semantic/b.md"});
  CHECK(ranked[1].score == Approx(ranked[0].score / 2));
  REQUIRE(ranked[1].via);
  CHECK(*ranked[1].via == ranked[0].entry);
  CHECK(recall::rank(index, {"nothing"}, k_today).empty());
}
