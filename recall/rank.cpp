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
                            Date today, std::size_t most) {
  std::unordered_map<std::uint32_t, double> raw;
  for (const auto& keyword : keywords) {
    for (const auto& [entry, bits] : index.postings(keyword)) {
      raw[entry] += weight_of(bits);
    }
  }
  std::vector<Candidate> direct;
  direct.reserve(raw.size());
  for (const auto& [entry, points] : raw) {
    const auto& e = index.entry(entry);
    direct.push_back(Candidate{entry, points * e.salience * recency(e, today), std::nullopt});
  }
  const auto better = [&](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) {
      return a.score > b.score;
    }
    return index.entry(a.entry).path < index.entry(b.entry).path;
  };
  // Only the best can be returned; a common word may match thousands.
  const auto keep = [&](std::vector<Candidate>& list) {
    const auto cut = std::min(list.size(), most);
    std::partial_sort(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(cut), list.end(),
                      better);
    list.resize(cut);
  };
  keep(direct);
  // One hop, from the best direct matches only, so a chain of links does not
  // drift; the best match names its related first.
  std::unordered_map<std::uint32_t, std::size_t> at; // entry → position in `out`
  std::vector<Candidate> out = direct;
  for (std::size_t i = 0; i < out.size(); ++i) {
    at.emplace(out[i].entry, i);
  }
  for (const auto& match : direct) {
    for (const auto related : index.related(match.entry)) {
      const double score = match.score * k_related_share;
      const auto it = at.find(related);
      if (it == at.end()) {
        if (!raw.contains(related)) { // a match cut above is not brought back as related
          at.emplace(related, out.size());
          out.push_back(Candidate{related, score, match.entry});
        }
      } else if (out[it->second].via && score > out[it->second].score) {
        out[it->second] = Candidate{related, score, match.entry};
      }
    }
  }
  keep(out);
  return out;
}

} // namespace engram::recall
