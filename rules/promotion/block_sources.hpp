// Where each core block's claims come from: the local-engine seed's Mode A
// rules, read against this store's layers. Deterministic; no model is called.
//  - user_profile: claims of semantic memories that were used, most used first
//  - project_context: claims of episodic memories, most recent session first
//  - behavioral_patterns: procedural instructions, most confident memory first
//  - active_decisions: claims that record a decision, in memories used at least 3 times
//  - learned_preferences: claims that state a preference, in high-confidence memories
// A claim already in the Deep Truths or in an earlier block is not repeated.
#pragma once

#include "../shared/usage.hpp"
#include "claim_text.hpp"
#include "core_blocks.hpp"
#include "deep_truths.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace engram::promotion {

// The least uses a memory needs for its decisions to be active (the seed's access count >= 3).
inline constexpr std::int64_t k_decision_min_uses = 3;

// A memory's confidence as a rank: high 3, medium 2, low 1; a number from 0
// to 1 is high from 0.7 (the seed's trust >= 0.7), medium from 0.4.
inline int confidence_rank(const StoreView& store, const std::string& path) {
  const auto value = knowledge::lower(store.field(path, "confidence").value_or("medium"));
  if (value == "high") {
    return 3;
  }
  if (value == "low") {
    return 1;
  }
  if (!value.empty() && (value[0] == '0' || value[0] == '1')) {
    try {
      std::size_t used = 0;
      const double n = std::stod(value, &used);
      if (used == value.size()) {
        return n >= 0.7 ? 3 : n >= 0.4 ? 2 : 1;
      }
    } catch (const std::exception&) {
      // Not a number: medium.
    }
  }
  return 2;
}

// True when a memory carries the tag (compared in canonical form).
inline bool has_tag(const StoreView& store, const std::string& path, std::string_view tag) {
  const auto wanted = store.canonical_tag(tag);
  const auto tags = store.list(path, "tags");
  return std::any_of(tags.begin(), tags.end(),
                     [&](const std::string& t) { return store.canonical_tag(t) == wanted; });
}

// True when any of `words` is a word of `line` (lower case).
inline bool has_any_word(const std::string& line, std::initializer_list<std::string_view> words) {
  const auto lowered = knowledge::lower(line);
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view w) { return knowledge::has_word(lowered, w); });
}

// True for a claim that records a decision.
inline bool is_decision(const std::string& line) {
  return has_any_word(line, {"decided", "decision", "we chose", "chose to", "agreed", "settled on",
                             "going with", "opted"});
}

// True for a claim that states a preference.
inline bool is_preference(const std::string& line) {
  return has_any_word(line, {"prefer", "prefers", "preferred", "preference", "likes", "dislikes",
                             "wants", "favour", "favor", "favours", "favors", "rather than"});
}

// One claim of a memory as a block candidate.
struct ClaimLine {
  std::string line; // claim_line of its text
  ClaimKind kind;   // as the engine classifies it
};

// The one-line claims of a memory, in order, solutions left out (too long to
// summarise), and tasks and session metadata (no knowledge to promote).
inline std::vector<ClaimLine> claim_lines(ClaimCache& cache, const std::string& path) {
  std::vector<ClaimLine> out;
  const auto& claims = cache.of(path);
  const auto& lines = cache.lines(path);
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const auto kind = claims[i].kind;
    if (kind != ClaimKind::solution && kind != ClaimKind::task && kind != ClaimKind::metadata &&
        !lines[i].empty()) {
      out.push_back(ClaimLine{lines[i], claims[i].kind});
    }
  }
  return out;
}

// The files of some layers that `wanted` accepts, ordered by `before` (a
// strict weak order), then by path. Filtering first keeps the claims of the
// rest from being split at all.
template <typename Wanted, typename Before>
std::vector<std::string> ordered_files(const StoreView& store, std::initializer_list<Layer> layers,
                                       Wanted wanted, Before before) {
  std::vector<std::string> files;
  for (const Layer layer : layers) {
    for (auto& path : store.files(layer)) {
      if (wanted(path)) {
        files.push_back(std::move(path));
      }
    }
  }
  std::stable_sort(files.begin(), files.end(), [&](const std::string& a, const std::string& b) {
    if (before(a, b)) {
      return true;
    }
    if (before(b, a)) {
      return false;
    }
    return a < b;
  });
  return files;
}

// Sort keys of files, read once per file: comparisons ask for them many times.
class SortKeys {
public:
  explicit SortKeys(const StoreView& store) : m_store(store) {}

  // How many times the memory at `path` was used.
  std::int64_t uses(const std::string& path) {
    auto it = m_uses.find(path);
    if (it == m_uses.end()) {
      it = m_uses.emplace(path, usage::usage_of(m_store, path).uses).first;
    }
    return it->second;
  }

  // The day of the session at `path` (1-01-01 when it has none).
  Date day(const std::string& path) {
    auto it = m_days.find(path);
    if (it == m_days.end()) {
      it = m_days.emplace(path, session_day(m_store, path).value_or(Date(1, 1, 1))).first;
    }
    return it->second;
  }

private:
  const StoreView& m_store;
  std::unordered_map<std::string, std::int64_t> m_uses;
  std::unordered_map<std::string, Date> m_days;
};

// The blocks made so far, and what they and the Deep Truths show, which a
// later block does not repeat.
class BlockList {
public:
  BlockList(const StoreView& store, ClaimCache& cache, const std::vector<Truth>& shown)
      : m_store(store), m_cache(cache) {
    for (const auto& truth : shown) {
      m_taken.insert(store.normalise(truth.text));
    }
  }

  // Adds a block from files in order, keeping the claims `keep` accepts.
  template <typename Keep>
  void add(std::string name, const std::vector<std::string>& files, Keep keep) {
    BlockInput block{std::move(name), {}};
    std::set<std::string> listed; // the block's own items, so none is listed twice
    for (const auto& path : files) {
      for (auto& [line, kind] : claim_lines(m_cache, path)) {
        if (listed.contains(line) || !keep(path, line, kind) ||
            m_taken.contains(m_store.normalise(line))) {
          continue;
        }
        listed.insert(line);
        block.items.push_back(std::move(line));
      }
    }
    // What this block would show is not repeated by the blocks after it.
    for (std::size_t i = 0; i < block.items.size() && i < k_block_items; ++i) {
      m_taken.insert(m_store.normalise(block.items[i]));
    }
    m_blocks.push_back(std::move(block));
  }

  // The blocks, in the order they were added; the list is spent after.
  std::vector<BlockInput> take() { return std::move(m_blocks); }

private:
  const StoreView& m_store;
  ClaimCache& m_cache;
  std::set<std::string> m_taken;
  std::vector<BlockInput> m_blocks;
};

// The candidates of every block, in CORE.md's order, none repeating a Deep
// Truth (`shown`) or a claim an earlier block would show.
inline std::vector<BlockInput> block_inputs(const StoreView& store, ClaimCache& cache,
                                            const std::vector<Truth>& shown) {
  BlockList blocks(store, cache, shown);
  SortKeys keys(store);
  const auto uses = [&](const std::string& path) { return keys.uses(path); };
  const auto by_uses = [&](const std::string& a, const std::string& b) {
    return uses(a) > uses(b);
  };

  const auto any = [](const std::string&) { return true; };
  blocks.add("user_profile",
             ordered_files(
                 store, {Layer::semantic}, [&](const std::string& path) { return uses(path) > 0; },
                 by_uses),
             [](const std::string&, const std::string&, ClaimKind) { return true; });

  blocks.add("project_context",
             ordered_files(store, {Layer::episodic}, any,
                           [&](const std::string& a, const std::string& b) {
                             return keys.day(a) > keys.day(b);
                           }),
             [](const std::string&, const std::string&, ClaimKind) { return true; });

  blocks.add("behavioral_patterns",
             ordered_files(store, {Layer::procedural}, any,
                           [&](const std::string& a, const std::string& b) {
                             const auto ca = confidence_rank(store, a);
                             const auto cb = confidence_rank(store, b);
                             return ca != cb ? ca > cb : uses(a) > uses(b);
                           }),
             // Instructions only: the "Why:" and "How to apply:" lines of an entry are its context.
             [](const std::string&, const std::string&, ClaimKind kind) {
               return kind == ClaimKind::behavioural;
             });

  blocks.add("active_decisions",
             ordered_files(
                 store, {Layer::semantic, Layer::procedural, Layer::episodic},
                 [&](const std::string& path) { return uses(path) >= k_decision_min_uses; },
                 by_uses),
             [&](const std::string& path, const std::string& line, ClaimKind) {
               return knowledge::lower(store.field(path, "type").value_or("")) == "decision" ||
                      has_tag(store, path, "decision") || is_decision(line);
             });

  blocks.add("learned_preferences",
             ordered_files(
                 store, {Layer::semantic, Layer::procedural},
                 [&](const std::string& path) {
                   // A cheap look at the body first: most memories state no preference.
                   return confidence_rank(store, path) == 3 &&
                          (has_tag(store, path, "preference") ||
                           is_preference(knowledge::one_line(store.body(path))));
                 },
                 by_uses),
             [&](const std::string& path, const std::string& line, ClaimKind) {
               return has_tag(store, path, "preference") || is_preference(line);
             });
  return blocks.take();
}

// block_inputs with claims split for this call only.
inline std::vector<BlockInput> block_inputs(const StoreView& store,
                                            const std::vector<Truth>& shown) {
  ClaimCache cache(store);
  return block_inputs(store, cache, shown);
}

} // namespace engram::promotion
