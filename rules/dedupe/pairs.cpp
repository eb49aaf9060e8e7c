// How dedupe finds duplicate files without comparing every pair: each file
// as the sorted ids of its significant words, an inverted index of those
// words rarest first, and prefix filtering with counting over it. Part of the
// dedupe rule (dedupe.hpp).
#include "dedupe.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace engram::dedupe {
namespace {

// Whether a doc takes part in a search: not merged away, and with significant words.
bool live(const Doc& doc) {
  return !doc.removed && !doc.words.empty();
}

} // namespace

std::vector<std::uint32_t> DedupeRule::words_of(const StoreView& store, std::string_view body) {
  std::vector<std::uint32_t> ids;
  knowledge::for_each_significant_word(body, [&](std::string_view raw) {
    auto known = m_word_ids.find(raw);
    if (known == m_word_ids.end()) {
      const auto canon = store.canonical_tag(raw);
      std::uint32_t id = k_no_word;
      if (!canon.empty()) {
        id = m_ids.try_emplace(canon, static_cast<std::uint32_t>(m_ids.size())).first->second;
      }
      known = m_word_ids.emplace(std::string(raw), id).first;
    }
    if (known->second != k_no_word) {
      ids.push_back(known->second);
    }
  });
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::vector<Pair> DedupeRule::find_pairs(const std::vector<Doc>& docs,
                                         const std::vector<bool>& changed,
                                         const std::vector<Pair>& known) const {
  const WordIndex index = index_words(docs, changed);
  std::vector<Pair> pairs;
  for (const auto& pair : known) {
    if (live(docs[pair.a]) && live(docs[pair.b]) && !changed[pair.a] && !changed[pair.b]) {
      pairs.push_back(pair);
    }
  }
  std::vector<std::uint32_t> shared(docs.size(), 0); // per candidate, this doc's words it holds
  std::vector<std::uint32_t> candidates;
  std::vector<std::uint32_t> order;
  for (const auto i : index.by_size) {
    const auto& doc = docs[i];
    const auto& postings = changed[i] ? index.all : index.fresh;
    order = doc.words;
    std::sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
      return index.frequency[x] != index.frequency[y] ? index.frequency[x] < index.frequency[y]
                                                      : x < y;
    });
    const auto n = order.size();
    const auto need =
        std::min(n, static_cast<std::size_t>(
                        std::max(1.0, std::ceil(m_similarity * static_cast<double>(n) - 1e-9))));
    const std::size_t probed = std::min(n, n - need + 1 + k_extra_probes);
    const std::size_t bound = need - (n - probed);
    for (std::size_t k = 0; k < probed; ++k) {
      const auto& list = postings[order[k]];
      // i is the smaller of the two (ties: the lower index): only files after it.
      auto j =
          std::upper_bound(list.begin(), list.end(), index.key(i),
                           [&](std::uint64_t at, std::uint32_t x) { return at < index.key(x); });
      for (; j != list.end(); ++j) {
        if (shared[*j]++ == 0) {
          candidates.push_back(*j);
        }
      }
    }
    for (const auto j : candidates) {
      if (shared[j] >= bound) {
        const double score = knowledge::overlap(doc.words, docs[j].words);
        if (score + 1e-9 >= m_similarity) {
          pairs.push_back(Pair{i, j, score});
        }
      }
      shared[j] = 0;
    }
    candidates.clear();
  }
  sort_best_first(pairs, docs);
  return pairs;
}

WordIndex DedupeRule::index_words(const std::vector<Doc>& docs,
                                  const std::vector<bool>& changed) const {
  WordIndex index;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    if (live(docs[i])) {
      index.by_size.push_back(static_cast<std::uint32_t>(i));
    }
  }
  // Sizes and word frequencies in arrays of their own: the searches read them at random.
  index.sizes.resize(docs.size());
  for (std::size_t i = 0; i < docs.size(); ++i) {
    index.sizes[i] = static_cast<std::uint32_t>(docs[i].words.size());
  }
  std::sort(index.by_size.begin(), index.by_size.end(),
            [&](std::uint32_t x, std::uint32_t y) { return index.key(x) < index.key(y); });
  index.all.resize(m_ids.size());
  index.fresh.resize(m_ids.size());
  for (const auto j : index.by_size) {
    for (const auto word : docs[j].words) {
      index.all[word].push_back(j);
      if (changed[j]) {
        index.fresh[word].push_back(j);
      }
    }
  }
  index.frequency.resize(index.all.size());
  for (std::size_t word = 0; word < index.all.size(); ++word) {
    index.frequency[word] = static_cast<std::uint32_t>(index.all[word].size());
  }
  return index;
}

void DedupeRule::sort_best_first(std::vector<Pair>& pairs, const std::vector<Doc>& docs) {
  std::sort(pairs.begin(), pairs.end(), [&](const Pair& x, const Pair& y) {
    if (x.score != y.score) {
      return x.score > y.score;
    }
    return std::tie(docs[x.a].path, docs[x.b].path) < std::tie(docs[y.a].path, docs[y.b].path);
  });
}

const DedupeRule::OwnClaims& DedupeRule::own_claims(const StoreView& store,
                                                    const std::string& path) {
  auto [found, made] = m_claims.try_emplace(path);
  if (made) {
    for (const auto& claim : store.claims(store.body(path))) {
      auto own = knowledge::split_markers(claim.text).own;
      found->second.as_indexed.push_back(own == claim.text);
      found->second.texts.push_back(std::move(own));
    }
  }
  return found->second;
}

const std::vector<ClaimMatch>& DedupeRule::related_of(const StoreView& store, Layer layer,
                                                      const std::string& claim) {
  auto [found, made] = m_related.try_emplace(claim);
  if (made) {
    found->second = store.related_claims(claim, layer, ClaimDetail::unclassified);
  }
  return found->second;
}

bool DedupeRule::held_in(const StoreView& store, Layer layer, const std::string& claim,
                         const std::string& path, const OwnClaims& more, bool ask_index) {
  const auto same = [](Relation relation) {
    return relation == Relation::duplicate || relation == Relation::update;
  };
  // The layer's claim index has judged `claim` against every claim it holds
  // as written, which is what comparing it with each would find, without
  // comparing it with every claim of every file paired with it. It leaves
  // out a file an undo holds, and a claim written with markers is compared
  // here without them.
  const bool indexed = ask_index && !store.held(path);
  for (std::size_t j = 0; j < more.texts.size(); ++j) {
    if ((!indexed || !more.as_indexed[j]) && same(store.compare(claim, more.texts[j]))) {
      return true;
    }
  }
  if (!indexed) {
    return false;
  }
  const auto& related = related_of(store, layer, claim);
  return std::any_of(related.begin(), related.end(), [&](const ClaimMatch& match) {
    return match.path == path && match.index < more.as_indexed.size() &&
           more.as_indexed[match.index] && same(match.relation);
  });
}

bool DedupeRule::shares_claims(const StoreView& store, Layer layer, const Doc& a, const Doc& b) {
  if (m_shared_claims <= 0.0) {
    return true;
  }
  const auto& first = own_claims(store, a.path);
  const auto& second = own_claims(store, b.path);
  const bool a_fewer = first.texts.size() <= second.texts.size();
  const auto& fewer = a_fewer ? first.texts : second.texts;
  const auto& more = a_fewer ? second : first;
  const auto& more_path = a_fewer ? b.path : a.path;
  if (fewer.empty()) {
    return false; // no knowledge to be a duplicate of (a file of superseded markers, say)
  }
  const auto needed =
      std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(
                                   m_shared_claims * static_cast<double>(fewer.size()) - 1e-9)));
  // Comparing claim by claim costs a judgment for each pair of claims; past
  // k_compared_most of them, the layer's claim index answers for less (its
  // answer for a claim is kept for every file paired with it). Files written
  // from one template pair with many others, and hold many claims each.
  const bool ask_index = fewer.size() * more.texts.size() > k_compared_most;
  std::size_t shared = 0;
  for (std::size_t i = 0; i < fewer.size(); ++i) {
    if (shared + (fewer.size() - i) < needed) {
      return false; // the claims left cannot reach it
    }
    shared += held_in(store, layer, fewer[i], more_path, more, ask_index) ? 1 : 0;
    if (shared >= needed) {
      return true;
    }
  }
  return false;
}

} // namespace engram::dedupe
