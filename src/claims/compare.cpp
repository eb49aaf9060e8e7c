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

// How many elements two sorted, unique lists share.
std::size_t shared_count(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::size_t shared = 0;
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    const int order = i->compare(*j);
    if (order < 0) {
      ++i;
    } else if (order > 0) {
      ++j;
    } else {
      ++shared;
      ++i;
      ++j;
    }
  }
  return shared;
}

// Whether sorted, unique `a` has an element sorted, unique `b` lacks.
bool has_missing(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return shared_count(a, b) < a.size();
}

// The elements of the sorted union of two sorted, unique lists, counted.
std::size_t joined_count(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return a.size() + b.size() - shared_count(a, b);
}

// How many elements `w1 ∪ values` and `w2 ∪ values` share; every list sorted and unique.
std::size_t shared_with_values(const std::vector<std::string>& w1,
                               const std::vector<std::string>& w2,
                               const std::vector<std::string>& values) {
  std::size_t shared = values.size();
  auto i = w1.begin();
  auto j = w2.begin();
  while (i != w1.end() && j != w2.end()) {
    const int order = i->compare(*j);
    if (order < 0) {
      ++i;
    } else if (order > 0) {
      ++j;
    } else {
      shared += std::binary_search(values.begin(), values.end(), *i) ? 0 : 1;
      ++i;
      ++j;
    }
  }
  return shared;
}

} // namespace

PreparedClaim prepare(std::string_view text) {
  return {normalise(text), tokens_of(text)};
}

namespace {

// Whether reading `text` for comments, as normalising does (each `<!--`
// closed by the first `-->` after it), ends outside one.
bool ends_outside_comment(std::string_view text) {
  for (std::size_t at = 0;;) {
    const auto open = text.find("<!--", at);
    if (open == std::string_view::npos) {
      return true;
    }
    const auto close = text.find("-->", open + 4);
    if (close == std::string_view::npos) {
      return false;
    }
    at = close + 3;
  }
}

// Whether `line` is one HTML comment, with nothing but spaces and tabs around it.
bool is_comment_line(std::string_view line) {
  const auto first = line.find_first_not_of(" \t");
  const auto last = line.find_last_not_of(" \t");
  if (first == std::string_view::npos) {
    return false;
  }
  const auto comment = line.substr(first, last + 1 - first);
  return comment.starts_with("<!--") && comment.find("-->", 4) == comment.size() - 3;
}

} // namespace

std::string_view prepared_alike(std::string_view text) {
  const auto newline = text.rfind('\n');
  if (newline != std::string_view::npos && is_comment_line(text.substr(newline + 1)) &&
      ends_outside_comment(text.substr(0, newline))) {
    return text.substr(0, newline);
  }
  return text.starts_with("- ") ? text.substr(2) : text;
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

Relation relation(const PreparedClaim& incoming, const PreparedClaim& existing,
                  double near_threshold) {
  // Mirrors compare_claims step for step; a unit test holds the two to the same verdicts.
  near_threshold = std::clamp(near_threshold, 0.0, 1.0);
  if (incoming.normal == existing.normal) {
    return Relation::duplicate;
  }
  const auto& in = incoming.tokens;
  const auto& ex = existing.tokens;
  const auto same_subject = [&] {
    const auto both = shared_count(in.words, ex.words);
    const auto all = in.words.size() + ex.words.size() - both;
    const double subject = all == 0 ? 1.0 : static_cast<double>(both) / static_cast<double>(all);
    return both >= k_min_subject_words && subject >= k_min_subject_overlap;
  };
  if (in.negated != ex.negated) {
    return same_subject() ? Relation::update : Relation::distinct;
  }
  if (in.values != ex.values) {
    return same_subject() && has_missing(ex.values, in.values) && has_missing(in.values, ex.values)
               ? Relation::update
               : Relation::distinct;
  }
  // Here both have the same values: the unions share those and the common words.
  const auto in_all = joined_count(in.words, in.values);
  const auto shared_all = shared_with_values(in.words, ex.words, in.values);
  if (in_all < k_min_containment_tokens) {
    return in_all != 0 && in_all == joined_count(ex.words, ex.values) && shared_all == in_all
               ? Relation::duplicate
               : Relation::distinct;
  }
  const auto containment = static_cast<double>(shared_all) / static_cast<double>(in_all);
  return containment >= near_threshold ? Relation::duplicate : Relation::distinct;
}

} // namespace engram::claims
