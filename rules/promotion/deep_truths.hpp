// Deep Truths: the working-memory seed's behavioural firmware, at most
// `guard.deep_truths` items. A claim becomes one when at least `min_sessions`
// sessions (episodic files) stated it — the same claim by the engine's
// comparison — across at least `min_days` days; a memory becomes one when it
// was used at least `min_uses` times, helped at least `min_helpful` of the
// time and is `min_age_days` old (the memory-consolidation seed's
// promoteToCore). The evidence of last run's truths is read back from CORE.md
// and grows with new sessions, so a truth outlives the episodic files that
// proved it; it leaves only when its claim is superseded or its memory is
// archived. Ranked by evidence; deterministic.
// Grouping the sessions' claims is session_claims.hpp's.
#pragma once

#include "../shared/usage.hpp"
#include "claim_text.hpp"
#include "core_file.hpp"
#include "session_claims.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace engram::promotion {

// The thresholds (`[rules.promotion]`, `guard.deep_truths`).
struct TruthSettings {
  std::int64_t min_sessions = 3;  // distinct sessions that stated the claim
  std::int64_t min_days = 7;      // days from the first such session to the last
  std::int64_t min_uses = 15;     // a memory's uses
  double min_helpful = 0.85;      // a memory's helpful share
  std::int64_t min_age_days = 30; // a memory's age
  std::size_t cap = 10;           // Deep Truths shown
};

// A truth that left, and why.
struct Dropped {
  Truth truth;
  std::string reason;
};

// What the Deep Truths are after this run.
struct TruthOutcome {
  std::vector<Truth> shown;     // ranked, at most `cap`
  std::vector<Truth> held_back; // ranked, proven but over the cap: at most `cap` more
  std::size_t not_kept =
      0; // proven, but ranked below the held-back ones too (unchecked for markers)
  std::vector<Truth> promoted;  // shown or held back now, in no truth of last run
  std::vector<Dropped> dropped; // last run's truths that left
};

// True when two claims state the same thing (a duplicate either way round).
inline bool same_claim(const StoreView& store, std::string_view a, std::string_view b) {
  return store.compare(a, b) == Relation::duplicate || store.compare(b, a) == Relation::duplicate;
}

// A superseded marker: the claim it keeps and the day it was superseded.
struct Superseded {
  Date day;
  std::string text;
  std::string path; // the file that holds the marker
};

// Every superseded marker of the live layers.
inline std::vector<Superseded> superseded_markers(const StoreView& store) {
  std::vector<Superseded> out;
  constexpr std::string_view previously = ": previously \"";
  for (const Layer layer : k_usage_layers) {
    for (const auto& path : store.files(layer)) {
      const auto body = store.body(path);
      if (body.find(knowledge::k_marker_open) == std::string::npos) {
        continue;
      }
      for (const auto& comment : knowledge::comments_of(body)) {
        if (!comment.starts_with(knowledge::k_marker_open)) {
          continue;
        }
        const auto rest = std::string_view(comment).substr(knowledge::k_marker_open.size());
        const auto day = rest.size() > 10 ? Date::parse(rest.substr(0, 10)) : std::nullopt;
        const auto quote = rest.find(previously);
        if (!day || quote == std::string_view::npos || !rest.ends_with("\" -->")) {
          continue;
        }
        auto quoted = std::string(
            rest.substr(quote + previously.size(), rest.size() - quote - previously.size() - 5));
        for (auto at = quoted.find("\\\""); at != std::string::npos; at = quoted.find("\\\"", at)) {
          quoted.replace(at, 2, "\"");
          ++at;
        }
        for (auto at = quoted.find("--&gt;"); at != std::string::npos;
             at = quoted.find("--&gt;", at)) {
          quoted.replace(at, 6, "-->");
        }
        out.push_back(Superseded{*day, std::move(quoted), path});
      }
    }
  }
  return out;
}

// The text a memory is promoted with: its `summary`, else its first claim.
inline std::string memory_text(const StoreView& store, ClaimCache& cache, const std::string& path) {
  for (const char* key : {"summary", "description"}) {
    if (auto value = store.field(path, key); value && !value->empty()) {
      return knowledge::one_line(*value);
    }
  }
  for (const auto& claim : cache.of(path)) {
    if (auto line = claim_line(claim.text); !line.empty()) {
      return line;
    }
  }
  return {};
}

// The memory evidence of a file now, or nullopt when its usage cannot be read.
inline std::optional<MemoryEvidence> memory_evidence(const StoreView& store,
                                                     const std::string& path) {
  const auto used = usage::usage_of(store, path);
  if (!used.problem.empty()) {
    return std::nullopt;
  }
  return MemoryEvidence{path, used.uses, used.helpful, used.unhelpful, used.created};
}

// True when a memory's usage proves it (promoteToCore's criteria).
inline bool proven_by_use(const StoreView& store, const std::string& path, const TruthSettings& s) {
  const auto used = usage::usage_of(store, path);
  const auto effectiveness = used.effectiveness();
  return used.problem.empty() && used.uses >= s.min_uses && effectiveness &&
         *effectiveness >= s.min_helpful && used.created &&
         store.today().days_since(*used.created) >= s.min_age_days &&
         knowledge::lower(store.field(path, "status").value_or("")) != "superseded";
}

// Why a truth must leave, or "" when it stays: its claim superseded (by a
// marker dated on or after its last evidence), or its memory archived.
inline std::string drop_reason(const StoreView& store, const Truth& truth,
                               const std::vector<Superseded>& markers) {
  const auto last = truth.evidence.last_day();
  for (const auto& marker : markers) {
    if ((!last || marker.day >= *last) && same_claim(store, truth.text, marker.text)) {
      return "superseded on " + marker.day.to_string() + " in " + marker.path;
    }
  }
  const auto archive = store.layer_path(Layer::archive) + "/";
  if (truth.evidence.memory) {
    const auto& path = truth.evidence.memory->path;
    if (store.exists(path)) {
      if (knowledge::lower(store.field(path, "status").value_or("")) == "superseded") {
        return "its memory " + path + " is superseded";
      }
      return {};
    }
    const auto stem = archive + path.substr(0, path.size() - 3);
    for (const auto& kept : store.files(Layer::archive)) {
      if (kept == archive + path || (kept.starts_with(stem + "-") && kept.ends_with(".md"))) {
        return "its memory " + path + " was archived to " + kept;
      }
    }
  }
  // A claim still held by a live memory stays; one only the archive holds has left.
  for (const Layer layer : k_usage_layers) {
    for (const auto& match : store.duplicate_claims(truth.text, layer, ClaimDetail::unclassified)) {
      if (match.relation == Relation::duplicate) {
        return {};
      }
    }
  }
  for (const auto& match :
       store.duplicate_claims(truth.text, Layer::archive, ClaimDetail::unclassified)) {
    if (match.relation == Relation::duplicate && match.path.ends_with(".md")) {
      return "its memory was archived to " + match.path;
    }
  }
  return {};
}

// The order of truths: more evidence first, then the longer span, then the older, then by text.
inline bool ranks_before(const Truth& a, const Truth& b) {
  if (a.evidence.strength() != b.evidence.strength()) {
    return a.evidence.strength() > b.evidence.strength();
  }
  const auto span = [](const Truth& t) {
    const auto first = t.evidence.first_day();
    const auto last = t.evidence.last_day();
    return first && last ? last->days_since(*first) : 0;
  };
  if (span(a) != span(b)) {
    return span(a) > span(b);
  }
  const auto af = a.evidence.first_day();
  const auto bf = b.evidence.first_day();
  if (af != bf) {
    return af && (!bf || *af < *bf);
  }
  return a.text < b.text;
}

// Last run's truths gather the sessions that state them again: each group of
// session claims no truth owns yet goes to the first truth it states, and
// its evidence with it.
inline void gather_previous(const StoreView& store, const std::vector<SessionClaim>& nodes,
                            std::vector<ClaimGroup>& groups, std::vector<Truth>& truths) {
  NodeIndex node_of;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    node_of.add(nodes[n].path, nodes[n].index, n);
  }
  for (std::size_t t = 0; t < truths.size(); ++t) {
    std::set<std::size_t> matched_nodes;
    for (const auto& match :
         store.duplicate_claims(truths[t].text, Layer::episodic, ClaimDetail::unclassified)) {
      const auto node = node_of.find(match.path, match.index);
      if (match.relation == Relation::duplicate && node) {
        matched_nodes.insert(*node);
      }
    }
    for (auto& group : groups) {
      if (group.owner) {
        continue;
      }
      bool same = std::any_of(group.members.begin(), group.members.end(),
                              [&](std::size_t n) { return matched_nodes.contains(n); });
      same = same || std::any_of(group.members.begin(), group.members.end(), [&](std::size_t n) {
               return store.compare(nodes[n].text, truths[t].text) == Relation::duplicate;
             });
      if (same) {
        group.owner = t;
        truths[t].evidence.merge(group.evidence);
      }
    }
  }
}

// New truths: claims stated in enough sessions across enough days (of the
// groups no truth of last run owns).
inline void add_session_truths(const std::vector<ClaimGroup>& groups, const TruthSettings& s,
                               std::vector<Truth>& truths) {
  for (const auto& group : groups) {
    if (!group.owner &&
        static_cast<std::int64_t>(group.evidence.sessions.size()) >= s.min_sessions &&
        group.evidence.span_days() >= s.min_days) {
      truths.push_back(Truth{group.text, group.evidence});
    }
  }
}

// Memories proven by use, and fresh stats for the memories truths came from.
inline void add_proven_memories(const StoreView& store, ClaimCache& cache, const TruthSettings& s,
                                std::vector<Truth>& truths) {
  const auto feedback = store.layer_path(Layer::procedural) + "/feedback.md";
  for (const Layer layer : {Layer::semantic, Layer::procedural, Layer::reference}) {
    for (const auto& path : store.files(layer)) {
      const auto owner = std::find_if(truths.begin(), truths.end(), [&](const Truth& t) {
        return t.evidence.memory && t.evidence.memory->path == path;
      });
      if (owner != truths.end()) {
        if (auto now = memory_evidence(store, path)) {
          owner->evidence.memory = now;
        }
        continue;
      }
      if (path == feedback || !proven_by_use(store, path, s)) {
        continue;
      }
      const auto text = memory_text(store, cache, path);
      if (text.empty()) {
        continue;
      }
      Evidence evidence;
      evidence.memory = memory_evidence(store, path);
      const auto same = std::find_if(truths.begin(), truths.end(), [&](const Truth& t) {
        return !t.evidence.memory && same_claim(store, t.text, text);
      });
      if (same != truths.end()) {
        same->evidence.merge(evidence);
      } else {
        truths.push_back(Truth{text, evidence});
      }
    }
  }
}

// What the Deep Truths are, from every truth in the running: the first
// `carried` are last run's, the rest new.
inline TruthOutcome rank_truths(const StoreView& store, const std::vector<Truth>& truths,
                                std::size_t carried, const TruthSettings& s) {
  // Last run's truths are all checked, so a dropped one is reported. New
  // ones are checked in rank order only while the shown and held-back lists
  // have room: a check compares the truth with every superseded marker of the
  // store, and a store's sessions can prove thousands of claims. The ones
  // past that are counted (not_kept) unchecked.
  TruthOutcome out;
  const auto markers = superseded_markers(store);
  std::vector<std::size_t> order;
  for (std::size_t t = 0; t < truths.size(); ++t) {
    if (t >= carried) {
      order.push_back(t);
    } else if (auto reason = drop_reason(store, truths[t], markers); reason.empty()) {
      order.push_back(t);
    } else {
      out.dropped.push_back(Dropped{truths[t], std::move(reason)});
    }
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return ranks_before(truths[a], truths[b]);
  });
  std::vector<std::size_t> promoted; // in the order truths were found
  for (const auto t : order) {
    const bool room = out.shown.size() < s.cap || out.held_back.size() < s.cap;
    if (!room) {
      ++out.not_kept;
      continue;
    }
    if (t >= carried && !drop_reason(store, truths[t], markers).empty()) {
      continue; // a new truth already superseded: not promoted
    }
    (out.shown.size() < s.cap ? out.shown : out.held_back).push_back(truths[t]);
    if (t >= carried) {
      promoted.push_back(t);
    }
  }
  std::sort(promoted.begin(), promoted.end());
  for (const auto t : promoted) {
    out.promoted.push_back(truths[t]);
  }
  return out;
}

// This run's Deep Truths, from the store and last run's truths (`previous`).
inline TruthOutcome deep_truths(const StoreView& store, ClaimCache& cache,
                                const std::vector<Truth>& previous, const TruthSettings& s) {
  std::vector<SessionClaim> nodes;
  auto groups = group_session_claims(store, cache, nodes);
  std::vector<Truth> truths = previous;
  gather_previous(store, nodes, groups, truths);
  const std::size_t carried = truths.size();
  add_session_truths(groups, s, truths);
  add_proven_memories(store, cache, s, truths);
  return rank_truths(store, truths, carried, s);
}

// deep_truths with claims split for this call only.
inline TruthOutcome deep_truths(const StoreView& store, const std::vector<Truth>& previous,
                                const TruthSettings& s) {
  ClaimCache cache(store);
  return deep_truths(store, cache, previous, s);
}

} // namespace engram::promotion
