// Claim comparison. The order of the tests matters: polarity and values are
// checked before containment, because "returns 100 items" and "returns 250
// items" share every word and must still not be duplicates.
#include "claims/compare.hpp"

#include "claims/normalise.hpp"
#include "claims/tokens.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iterator>
#include <vector>

namespace engram::claims {
namespace {

// Fewest shared significant words for two claims to be about one subject.
constexpr std::size_t k_min_subject_words = 3;
// Least Jaccard overlap of significant words for one subject.
constexpr double k_min_subject_overlap = 0.8;
// Below this many tokens, containment is too coarse: only equal token sets are duplicates.
constexpr std::size_t k_min_containment_tokens = 3;

// The elements two sorted lists share.
std::vector<std::string> shared(const std::vector<std::string>& a,
                                const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// The elements of sorted `a` that sorted `b` lacks.
std::vector<std::string> missing(const std::vector<std::string>& a,
                                 const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// `a` and `b` merged, sorted.
std::vector<std::string> joined(const std::vector<std::string>& a,
                                const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// Jaccard overlap of two sorted lists (1 when both are empty).
double jaccard(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const auto all = joined(a, b).size();
  return all == 0 ? 1.0 : static_cast<double>(shared(a, b).size()) / static_cast<double>(all);
}

} // namespace

PreparedClaim prepare(std::string_view text) {
  return {normalise(text), tokens_of(text)};
}

Comparison compare_claims(std::string_view incoming, std::string_view existing,
                          double near_threshold) {
  return compare_claims(prepare(incoming), prepare(existing), near_threshold);
}

Comparison compare_claims(const PreparedClaim& incoming, const PreparedClaim& existing,
                          double near_threshold) {
  near_threshold = std::clamp(near_threshold, 0.0, 1.0);
  if (incoming.normal == existing.normal) {
    return {Relation::duplicate, 1.0, "equal after normalising"};
  }
  const auto& in = incoming.tokens;
  const auto& ex = existing.tokens;
  const auto subject = jaccard(in.words, ex.words);
  const bool same_subject =
      shared(in.words, ex.words).size() >= k_min_subject_words && subject >= k_min_subject_overlap;

  if (in.negated != ex.negated) {
    if (same_subject) {
      return {Relation::update, subject,
              fmt::format("same subject, polarity flipped ({} → {})",
                          ex.negated ? "negative" : "positive",
                          in.negated ? "negative" : "positive")};
    }
    return {Relation::distinct, subject, "opposite polarity, different subject"};
  }
  if (in.values != ex.values) {
    const auto dropped = missing(ex.values, in.values);
    const auto added = missing(in.values, ex.values);
    // A value replaced is an update; a value only added or only dropped is
    // different knowledge, and keeping both loses nothing.
    if (same_subject && !dropped.empty() && !added.empty()) {
      return {Relation::update, subject,
              fmt::format("same subject, value changed ({} → {})", fmt::join(dropped, ", "),
                          fmt::join(added, ", "))};
    }
    return {Relation::distinct, subject,
            same_subject ? "same subject, a value only added or dropped" : "different values"};
  }

  // Same values and polarity: a duplicate when the incoming claim adds (almost) nothing.
  const auto in_all = joined(in.words, in.values);
  const auto ex_all = joined(ex.words, ex.values);
  if (in_all.size() < k_min_containment_tokens) {
    if (!in_all.empty() && in_all == ex_all) {
      return {Relation::duplicate, 1.0, "same significant words"};
    }
    return {Relation::distinct, 0.0, "too few significant words to call near-equal"};
  }
  const auto containment =
      static_cast<double>(shared(in_all, ex_all).size()) / static_cast<double>(in_all.size());
  if (containment >= near_threshold) {
    return {Relation::duplicate, containment,
            fmt::format("{:.0f}% of its significant words are in the existing claim",
                        containment * 100)};
  }
  const auto added = missing(in.words, ex.words);
  return {Relation::distinct, containment,
          fmt::format("adds {}", added.empty() ? std::string("words")
                                               : fmt::format("{}", fmt::join(added, ", ")))};
}

Relation compare(std::string_view incoming, std::string_view existing, double near_threshold) {
  return compare_claims(incoming, existing, near_threshold).relation;
}

} // namespace engram::claims
