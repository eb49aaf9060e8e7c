// Ranking: which memories of the recall index answer a query, best first.
// A keyword found in a memory's tags scores 2, in its trigger words 4 (the
// four-layer seed's "2× weight": triggers name the symptom a solution is
// for), in its summary 1; the sum is multiplied by salience (high 3, medium
// 2, low 1); an episodic memory from the last 30 days gets up to a quarter
// more, the newer the more. The memories a match names in `related` follow,
// one hop, at half its score. Superseded memories are not in the index.
#pragma once

#include "engram/date.hpp"
#include "recall/recall_index.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace engram::recall {

// What a tag match is worth.
inline constexpr double k_tag_weight = 2;
// What a trigger match is worth: twice a tag.
inline constexpr double k_trigger_weight = 4;
// What a summary match is worth.
inline constexpr double k_summary_weight = 1;
// A related memory's share of the score of the match that names it.
inline constexpr double k_related_share = 0.5;
// How many days an episodic memory counts as recent.
inline constexpr std::int64_t k_recent_days = 30;
// The most a recent episodic memory's score grows by (a share of it).
inline constexpr double k_recent_bonus = 0.25;

// One ranked memory.
struct Candidate {
  std::uint32_t entry = 0;           // its number in the index
  double score = 0;                  // higher is better
  std::optional<std::uint32_t> via;  // the match whose `related` brought it; nullopt: matched itself
};

// The best `most` of the entries that match `keywords` (canonical, from
// keywords_of()) and of those the best `most` matches relate to, best first;
// ties by path, so the order is always the same.
std::vector<Candidate> rank(const RecallIndex& index, const std::vector<std::string>& keywords,
                            Date today, std::size_t most = 1000);

} // namespace engram::recall
