// Ranking: scores summed over postings, then one hop along `related`.
#include "recall/rank.hpp"

#include <algorithm>
#include <unordered_map>

namespace engram::recall {

namespace {

// What one posting's match bits are worth.
double weight_of(unsigned bits) {
  return ((bits & k_match_tag) != 0 ? k_tag_weight : 0) +
         ((bits & k_match_trigger) != 0 ? k_trigger_weight : 0) +
         ((bits & k_match_summary) != 0 ? k_summary_weight : 0);
}

// The factor a recent episodic memory's score is multiplied by (1 for others).
double recency(const Entry& entry, Date today) {
  if (!entry.episodic || !entry.created) {
    return 1;
  }
  const auto age = today.days_since(*entry.created);
  if (age < 0 || age >= k_recent_days) {
    return 1;
  }
  return 1 + k_recent_bonus * static_cast<double>(k_recent_days - age) /
                 static_cast<double>(k_recent_days);
}

} // namespace

std::vector<Candidate> rank(const RecallIndex& index, const std::vector<std::string>& keywords,
                            Date today) {
  std::unordered_map<std::uint32_t, double> raw;
  for (const auto& keyword : keywords) {
    for (const auto& [entry, bits] : index.postings(keyword)) {
      raw[entry] += weight_of(bits);
    }
  }
  const auto& entries = index.entries();
  std::unordered_map<std::uint32_t, Candidate> scored;
  for (const auto& [entry, points] : raw) {
    const auto& e = entries[entry];
    scored[entry] = Candidate{entry, points * e.salience * recency(e, today), std::nullopt};
  }
  // One hop: from direct matches only, so a chain of links does not drift.
  std::vector<Candidate> direct;
  direct.reserve(scored.size());
  for (const auto& [entry, candidate] : scored) {
    direct.push_back(candidate);
  }
  const auto better = [&](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) {
      return a.score > b.score;
    }
    return entries[a.entry].path < entries[b.entry].path;
  };
  std::sort(direct.begin(), direct.end(), better); // the best match names its related first
  for (const auto& match : direct) {
    for (const auto related : index.related(match.entry)) {
      const double score = match.score * k_related_share;
      auto it = scored.find(related);
      if (it == scored.end()) {
        scored.emplace(related, Candidate{related, score, match.entry});
      } else if (it->second.via && score > it->second.score) {
        it->second = Candidate{related, score, match.entry};
      }
    }
  }
  std::vector<Candidate> out;
  out.reserve(scored.size());
  for (const auto& [entry, candidate] : scored) {
    out.push_back(candidate);
  }
  std::sort(out.begin(), out.end(), better);
  return out;
}

} // namespace engram::recall
