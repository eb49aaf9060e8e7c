// The dedupe rule: memories of one type whose significant words overlap at
// least `similarity` (the share of the smaller set) are duplicates, and the
// older merges into the newer: every claim of the older is absorbed, recorded
// as a duplicate of the text already there, or kept in a superseded marker
// beside the newer claim that updates it; tags and `related` are unioned; the
// older file is removed last. Files that are young, critical, confirmed
// never/do-not rules, or procedural are never merged: they are reported.
// Candidates come from an inverted index with prefix filtering and counting
// (rarest words first), so a store of 10,000 files is not compared pair by pair.
// The rule's class is in dedupe.hpp; finding pairs is pairs.cpp's, merging
// them merge.cpp's.
#include "dedupe.hpp"

#include "engram/plugin.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace engram::dedupe {

std::string DedupeRule::percent(double share) {
  return std::to_string(static_cast<int>(std::floor(share * 100.0 + 1e-9))) + "%";
}

void DedupeRule::run(StoreView& store) {
  m_ids.clear();
  m_word_ids.clear();
  m_similarity = std::clamp(knowledge::real_setting(store, "similarity", 0.6), 0.0, 1.0);
  m_shared_claims = std::clamp(knowledge::real_setting(store, "shared_claims", 0.25), 0.0, 1.0);
  m_min_age = knowledge::int_setting(store, "min_age_days", 14);
  m_max_bytes = static_cast<std::size_t>(knowledge::int_setting(store, "max_merged_bytes", 32768));
  m_too_large.clear();
  m_claims.clear();
  m_related.clear();
  m_linking.clear();
  for (const Layer layer : k_linking_layers) {
    for (const auto& path : store.files(layer)) {
      if (!store.list(path, "related").empty()) {
        m_linking.push_back(path);
      }
    }
  }
  for (const Layer layer : {Layer::semantic, Layer::reference, Layer::procedural}) {
    // Files of one type only: the `type` field, else the layer's.
    std::map<std::string, std::vector<std::string>> by_type;
    for (const auto& path : store.files(layer)) {
      auto type = knowledge::lower(store.field(path, "type").value_or(""));
      by_type[type.empty() ? store.layer_path(layer) : type].push_back(path);
    }
    for (const auto& [type, paths] : by_type) {
      dedupe(store, layer, paths);
    }
  }
}

void DedupeRule::dedupe(StoreView& store, Layer layer, const std::vector<std::string>& paths) {
  if (paths.size() < 2) {
    return;
  }
  m_related.clear(); // answers of another layer's index
  std::vector<Doc> docs;
  docs.reserve(paths.size());
  for (const auto& path : paths) {
    Doc doc{path, words_of(store, store.body(path)), knowledge::Age::of(store, path), {}, false};
    doc.guard = guard_of(store, layer, doc);
    docs.push_back(std::move(doc));
  }
  // Merging adds words to the newer file, which can make it a duplicate of
  // another: search again until a search finds nothing to merge, so a second
  // run right after this one has nothing to do. A search after the first
  // looks only for pairs with a file that changed; the others still hold.
  std::vector<bool> changed(docs.size(), true);
  std::vector<Pair> pairs;
  for (;;) {
    pairs = find_pairs(docs, changed, pairs);
    // A pair dropped here is not found again until one of its files changes.
    std::erase_if(pairs, [&](const Pair& pair) {
      return !shares_claims(store, layer, docs[pair.a], docs[pair.b]);
    });
    std::vector<Pair> mergeable;
    for (const auto& pair : pairs) {
      if (docs[pair.a].guard.empty() && docs[pair.b].guard.empty() &&
          !held(store, docs[pair.a].path) && !held(store, docs[pair.b].path) &&
          !too_large(store, docs[pair.a], docs[pair.b], pair.score)) {
        mergeable.push_back(pair);
      }
    }
    if (mergeable.empty()) {
      report(store, docs, pairs);
      return;
    }
    // A file that grew this round is searched again before it merges on.
    std::fill(changed.begin(), changed.end(), false);
    for (const auto& pair : mergeable) {
      auto [newer, older] = knowledge::newer(docs[pair.a].age, docs[pair.b].age)
                                ? std::pair{pair.a, pair.b}
                                : std::pair{pair.b, pair.a};
      if (docs[newer].removed || docs[older].removed || changed[older] ||
          too_large(store, docs[older], docs[newer], pair.score)) {
        continue; // sizes change as this round merges
      }
      merge(store, docs[older], docs[newer], pair.score);
      docs[older].removed = true;
      docs[newer].words = words_of(store, store.body(docs[newer].path));
      m_claims.erase(docs[newer].path);
      m_related.clear(); // the layer's claims changed
      changed[newer] = true;
    }
  }
}

bool DedupeRule::too_large(StoreView& store, const Doc& a, const Doc& b, double score) {
  if (a.removed || b.removed) {
    return false;
  }
  const auto bytes = store.body(a.path).size() + store.body(b.path).size();
  if (bytes <= m_max_bytes) {
    return false;
  }
  const auto key = a.path < b.path ? a.path + '\n' + b.path : b.path + '\n' + a.path;
  if (m_too_large.insert(key).second) {
    store.record(Action{"", "flagged", "", a.path, b.path,
                        "likely duplicate, " + percent(score) +
                            " of significant words shared; not merged: together " +
                            std::to_string(bytes) + " bytes, over rules.dedupe.max_merged_bytes (" +
                            std::to_string(m_max_bytes) + ")"});
  }
  return true;
}

std::string DedupeRule::guard_of(const StoreView& store, Layer layer, const Doc& doc) const {
  if (layer == Layer::procedural) {
    return "procedural entries are never merged automatically";
  }
  if (auto reason = knowledge::protected_reason(store, doc.path); !reason.empty()) {
    return reason;
  }
  const auto day = doc.age.day();
  if (!day) {
    return "its age is unknown";
  }
  if (store.today().days_since(*day) < m_min_age) {
    return "younger than " + std::to_string(m_min_age) + " days (made " + day->to_string() + ")";
  }
  return {};
}

void DedupeRule::report(StoreView& store, const std::vector<Doc>& docs,
                        const std::vector<Pair>& pairs) {
  struct Flag {
    const Pair* best = nullptr;
    std::size_t others = 0;
  };
  std::map<std::string, Flag> flags; // by path, so the record's order is stable
  for (const auto& pair : pairs) {
    for (const auto index : {pair.a, pair.b}) {
      if (!docs[index].guard.empty()) {
        auto& flag = flags[docs[index].path];
        if (flag.best == nullptr) {
          flag.best = &pair;
        } else {
          ++flag.others;
        }
      }
    }
  }
  // A pair whose two files are kept apart for one reason is one flag for a
  // person, not one from each side.
  std::map<const Pair*, std::string> told;
  for (const auto& [path, flag] : flags) {
    const auto& pair = *flag.best;
    const auto& guarded = docs[pair.a].path == path ? docs[pair.a] : docs[pair.b];
    const auto& other = docs[pair.a].path == path ? docs[pair.b] : docs[pair.a];
    if (const auto it = told.find(&pair); it != told.end() && it->second == guarded.guard) {
      continue;
    }
    told.emplace(&pair, guarded.guard);
    const auto more = flag.others == 0 ? std::string()
                                       : " (and " + std::to_string(flag.others) + " more file" +
                                             (flag.others == 1 ? "" : "s") + ")";
    store.record(Action{"", "flagged", "", guarded.path, other.path,
                        "likely duplicate, " + percent(pair.score) +
                            " of significant words shared" + more +
                            "; not merged: " + guarded.guard});
  }
}

} // namespace engram::dedupe

ENGRAM_RULE_PLUGIN(engram::dedupe::DedupeRule, "dedupe", engram::Phase::merge,
                   "merges near-duplicate memories of one type into the newer, every claim kept",
                   "0.1.0", false)
