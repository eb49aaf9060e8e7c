// Sessions that state the same claim, for Deep Truths (deep_truths.hpp): every
// claim of every session (episodic file) with its day, grouped by sameness as
// the engine compares claims, each group worded as its newest session said
// it and carrying its sessions as evidence.
#pragma once

#include "claim_text.hpp"
#include "evidence.hpp"

#include <cstddef>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace engram::promotion {

// The day of a session: the `YYYY-MM-DD` its file name starts with, else `created`.
inline std::optional<Date> session_day(const StoreView& store, const std::string& path) {
  const auto name = std::string_view(path).substr(path.rfind('/') + 1);
  if (name.size() >= 10) {
    if (auto day = Date::parse(name.substr(0, 10))) {
      return day;
    }
  }
  return store.date(path, "created");
}

// One claim of one session, for grouping sessions that state the same claim.
struct SessionClaim {
  std::string path;
  std::size_t index; // position in claims(body(path))
  std::string text;  // as written
  Date day;
};

// Groups of session claims that state the same claim, each as evidence with
// the text of its newest session; best evidence first is not implied.
struct ClaimGroup {
  std::string text; // the newest session's wording, on one line
  std::vector<std::size_t> members;
  Evidence evidence;
  std::optional<std::size_t> owner; // the truth (of last run) it was given to
};

// The node of each (episodic file, claim index), looked up once per match:
// by path, then by position, not by comparing whole paths in a tree.
class NodeIndex {
public:
  void add(const std::string& path, std::size_t index, std::size_t node) {
    auto& nodes = m_by_path[path];
    if (nodes.size() <= index) {
      nodes.resize(index + 1, k_none);
    }
    nodes[index] = node;
  }

  std::optional<std::size_t> find(const std::string& path, std::size_t index) const {
    const auto it = m_by_path.find(path);
    if (it == m_by_path.end() || index >= it->second.size() || it->second[index] == k_none) {
      return std::nullopt;
    }
    return it->second[index];
  }

private:
  static constexpr std::size_t k_none = static_cast<std::size_t>(-1);
  std::unordered_map<std::string, std::vector<std::size_t>> m_by_path;
};

// Appends the claims of every session to `nodes`, each with its node in the index returned.
inline NodeIndex number_session_claims(const StoreView& store, ClaimCache& cache,
                                       std::vector<SessionClaim>& nodes) {
  NodeIndex id_of;
  for (const auto& path : store.files(Layer::episodic)) {
    const auto day = session_day(store, path);
    if (!day) {
      continue; // a session without a day proves nothing about "across days"
    }
    const auto& claims = cache.of(path);
    const auto& lines = cache.lines(path);
    for (std::size_t i = 0; i < claims.size(); ++i) {
      if (lines[i].empty()) {
        continue;
      }
      id_of.add(path, i, nodes.size());
      nodes.push_back(SessionClaim{path, i, claims[i].text, *day});
    }
  }
  return id_of;
}

// Gives each group the wording of its newest session (then of the later
// path): the latest way it was said.
inline void word_groups(ClaimCache& cache, const std::vector<SessionClaim>& nodes,
                        std::vector<ClaimGroup>& groups) {
  for (auto& group : groups) {
    const auto newest = *std::max_element(
        group.members.begin(), group.members.end(), [&](std::size_t a, std::size_t b) {
          return nodes[a].day != nodes[b].day ? nodes[a].day < nodes[b].day
                                              : nodes[a].path < nodes[b].path;
        });
    group.text = cache.lines(nodes[newest].path)[nodes[newest].index];
  }
}

// The claims of every session, grouped by sameness.
inline std::vector<ClaimGroup> group_session_claims(const StoreView& store, ClaimCache& cache,
                                                    std::vector<SessionClaim>& nodes) {
  const NodeIndex id_of = number_session_claims(store, cache, nodes);
  std::vector<std::size_t> parent(nodes.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](std::size_t x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  const auto unite = [&](std::size_t x, std::size_t y) {
    const auto a = find(x);
    const auto b = find(y);
    parent[std::max(a, b)] = std::min(a, b);
  };
  // Sessions repeat themselves word for word: the same text is looked up once,
  // and every session that wrote it joins the first one's group. A claim an
  // earlier look-up already found is not looked up again: what it duplicates,
  // the claim that found it duplicates too (containment carries over).
  std::unordered_map<std::string, std::size_t> first_with_text;
  std::vector<bool> found(nodes.size(), false);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto [seen, fresh] = first_with_text.emplace(nodes[i].text, i);
    if (!fresh) {
      unite(i, seen->second);
      continue;
    }
    if (found[i]) {
      continue;
    }
    for (const auto& match :
         store.duplicate_claims(nodes[i].text, Layer::episodic, ClaimDetail::unclassified)) {
      if (match.relation != Relation::duplicate) {
        continue;
      }
      if (const auto node = id_of.find(match.path, match.index)) {
        unite(i, *node);
        found[*node] = true;
      }
    }
  }
  std::map<std::size_t, std::size_t> group_of;
  std::vector<ClaimGroup> groups;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto root = find(i);
    auto [it, fresh] = group_of.emplace(root, groups.size());
    if (fresh) {
      groups.emplace_back();
    }
    auto& group = groups[it->second];
    group.members.push_back(i);
    group.evidence.add(Session{nodes[i].day, nodes[i].path});
  }
  word_groups(cache, nodes, groups);
  return groups;
}

} // namespace engram::promotion
