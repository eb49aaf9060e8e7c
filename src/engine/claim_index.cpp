// ClaimIndex. A claim can only duplicate or update claims it shares tokens
// with, and how many it must share follows from the thresholds of
// claims::relation. So each query looks at the texts holding the rarest of
// the tokens that any match must include (prefix filtering), then decides
// each candidate with claims::relation itself: the answer is exactly the
// one comparing with every claim gives.
#include "engine/claim_index.hpp"

#include <algorithm>
#include <limits>

namespace engram::engine {
namespace {

// Least Jaccard overlap of significant words for an update (claims::relation).
constexpr double k_subject_overlap = 0.8;
// Fewest shared significant words for an update (claims::relation).
constexpr std::size_t k_subject_words = 3;
// Below this many tokens a duplicate needs equal token sets (claims::relation).
constexpr std::size_t k_containment_tokens = 3;

// The most of `n` tokens that can be missing while `double(n - m) / n`
// stays at or above `threshold`: computed with relation's own arithmetic.
std::size_t most_missing(std::size_t n, double threshold) {
  std::size_t m = 0;
  while (m < n && static_cast<double>(n - (m + 1)) / static_cast<double>(n) >= threshold) {
    ++m;
  }
  return m;
}

// How many numbers two sorted lists share.
std::size_t shared_count(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  std::size_t shared = 0;
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++shared;
      ++i;
      ++j;
    }
  }
  return shared;
}

} // namespace

std::uint32_t ClaimTable::number(Numbers& numbers, const std::string& text) {
  const auto it = numbers.find(text);
  if (it != numbers.end()) {
    return it->second;
  }
  const auto n = static_cast<std::uint32_t>(numbers.size());
  numbers.emplace(text, n);
  return n;
}

std::uint32_t ClaimTable::id(std::string_view text) {
  if (const auto it = m_ids.find(text); it != m_ids.end()) {
    return it->second;
  }
  Entry entry;
  entry.text = std::string(text);
  entry.prepared = claims::prepare(text);
  entry.normal = number(m_normals, entry.prepared.normal);
  for (const auto& word : entry.prepared.tokens.words) {
    entry.words.push_back(number(m_tokens, word));
  }
  std::sort(entry.words.begin(), entry.words.end());
  entry.all = entry.words;
  for (const auto& value : entry.prepared.tokens.values) {
    entry.all.push_back(number(m_tokens, value));
  }
  std::sort(entry.all.begin(), entry.all.end());
  entry.all.erase(std::unique(entry.all.begin(), entry.all.end()), entry.all.end());
  const auto n = static_cast<std::uint32_t>(m_entries.size());
  std::uint64_t bits = 0;
  for (const auto token : entry.all) {
    bits |= std::uint64_t{1} << (token % 64);
  }
  m_normal.push_back(entry.normal);
  m_bits.push_back(bits);
  m_entries.push_back(std::move(entry));
  m_ids.emplace(std::string(text), n);
  return n;
}

void ClaimIndex::post(std::uint32_t id, const ClaimTable& table) {
  if (id >= m_posted.size()) {
    m_posted.resize(std::max<std::size_t>(id + 1, m_posted.size() * 2), 0);
  }
  if (m_posted[id] != 0) {
    return;
  }
  m_posted[id] = 1;
  const auto& entry = table.entry(id);
  for (const auto token : entry.all) {
    if (token >= m_postings.size()) {
      m_postings.resize(token + 1);
    }
    m_postings[token].push_back(id);
  }
  m_by_normal[entry.normal].push_back(id);
}

void ClaimIndex::update(const std::string& path, std::string_view body, ClaimTable& table) {
  auto& file = m_files[path];
  file.present = true;
  file.sections.update(body, &table.kinds());
  file.ids.clear();
  file.kinds.clear();
  const std::string* key = &m_files.find(path)->first;
  for (const auto& section : file.sections.sections()) {
    const auto& content = *section.content;
    if (content.ids.size() != content.claims.size()) {
      // A section split again: number its claims and index them for this
      // file. Sections kept from before are indexed already.
      content.ids.clear();
      for (const auto& claim : content.claims) {
        const auto id = table.id(claim.text);
        content.ids.push_back(id);
        post(id, table);
        auto& holders = m_holders[id];
        if (std::find(holders.begin(), holders.end(), key) == holders.end()) {
          holders.push_back(key);
        }
      }
    }
    file.ids.insert(file.ids.end(), content.ids.begin(), content.ids.end());
    for (const auto& claim : content.claims) {
      file.kinds.push_back(claim.kind);
    }
  }
}

void ClaimIndex::remove(const std::string& path) {
  const auto it = m_files.find(path);
  if (it != m_files.end()) {
    it->second.present = false;
    it->second.ids.clear();
    it->second.kinds.clear();
    it->second.sections = {};
  }
}

std::vector<ClaimMatch> ClaimIndex::related(std::uint32_t incoming, const ClaimTable& table,
                                            double near_threshold) const {
  near_threshold = std::clamp(near_threshold, 0.0, 1.0);
  const auto& in = table.entry(incoming);
  if (m_seen.size() < table.size()) {
    m_seen.resize(table.size(), 0);
  }
  ++m_query;
  std::vector<std::uint32_t> candidates;
  auto add = [&](const std::vector<std::uint32_t>& ids) {
    for (const auto id : ids) {
      if (m_seen[id] != m_query) {
        m_seen[id] = m_query;
        candidates.push_back(id);
      }
    }
  };
  auto postings = [&](std::uint32_t token) -> const std::vector<std::uint32_t>& {
    static const std::vector<std::uint32_t> k_none;
    return token < m_postings.size() ? m_postings[token] : k_none;
  };
  // Of `tokens`, the `k` held by the fewest texts: any match holds one of them.
  auto add_rarest = [&](std::vector<std::uint32_t> tokens, std::size_t k) {
    std::sort(tokens.begin(), tokens.end(), [&](std::uint32_t a, std::uint32_t b) {
      return postings(a).size() < postings(b).size();
    });
    for (std::size_t i = 0; i < k && i < tokens.size(); ++i) {
      add(postings(tokens[i]));
    }
  };

  // Equal normal forms are duplicates whatever their tokens.
  if (const auto it = m_by_normal.find(in.normal); it != m_by_normal.end()) {
    add(it->second);
  }
  // A duplicate by containment misses at most `most_missing` of the
  // incoming tokens (with fewer than three, none): it holds one of any
  // `most_missing + 1` of them.
  constexpr auto k_never = std::numeric_limits<std::size_t>::max();
  const auto n = in.all.size();
  bool everything = false;
  std::size_t duplicate_holds = k_never; // how many incoming tokens a duplicate holds, at least
  if (n > 0) {
    const auto missing = n < k_containment_tokens ? 0 : most_missing(n, near_threshold);
    duplicate_holds = n - missing;
    if (missing + 1 > n) {
      everything = true; // a threshold of 0: every claim with the same values could be one
    } else {
      add_rarest(in.all, missing + 1);
    }
  }
  // An update shares at least three words and 80% of the incoming ones.
  const auto w = in.words.size();
  std::size_t update_holds = k_never; // how many incoming words an update holds, at least
  if (w >= k_subject_words) {
    const auto missing = std::min(w - k_subject_words, most_missing(w, k_subject_overlap));
    update_holds = w - missing;
    add_rarest(in.words, missing + 1);
  }
  const auto holds_at_least = std::min(duplicate_holds, update_holds);
  if (everything) {
    for (std::uint32_t id = 0; id < m_posted.size(); ++id) {
      if (m_posted[id] != 0 && m_seen[id] != m_query) {
        m_seen[id] = m_query;
        candidates.push_back(id);
      }
    }
  }

  std::vector<ClaimMatch> out;
  for (const auto id : candidates) {
    if (table.normal(id) != in.normal) {
      // Sift out what holds too few of the incoming tokens to be a duplicate
      // or an update: first by token bits (a clear bit is a token not held),
      // then exactly.
      const auto bits = table.token_bits(id);
      std::size_t maybe_held = 0;
      for (const auto token : in.all) {
        maybe_held += (bits >> (token % 64)) & 1U;
      }
      if (maybe_held < holds_at_least || shared_count(in.all, table.entry(id).all) < holds_at_least) {
        continue;
      }
    }
    const auto relation = claims::relation(in.prepared, table.entry(id).prepared, near_threshold);
    if (relation == Relation::distinct) {
      continue;
    }
    const auto holders = m_holders.find(id);
    if (holders == m_holders.end()) {
      continue;
    }
    for (const auto* path : holders->second) {
      const auto& file = m_files.find(*path)->second;
      for (std::size_t i = 0; i < file.ids.size(); ++i) {
        if (file.ids[i] == id) {
          out.push_back(ClaimMatch{*path, i, table.entry(id).text, file.kinds[i], relation});
        }
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const ClaimMatch& a, const ClaimMatch& b) {
    return std::tie(a.path, a.index) < std::tie(b.path, b.index);
  });
  return out;
}

} // namespace engram::engine
