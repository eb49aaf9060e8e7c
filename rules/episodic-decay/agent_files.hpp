// The agent's own files that hold what it knows (OpenClaw's USER.md,
// TOOLS.md, AGENTS.md, …), which the store keeps in its core layer beside
// engram's CORE.md. The agent loads them every session and engram never
// writes them, so a note's claim one of them already states is known: it is
// not filed again elsewhere. A claim that updates one of their lines is
// filed as any other, and its record names the line it is newer than.
#pragma once

#include "engram/rule.hpp"
#include "engram/text.hpp"
#include "user_file.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace engram::episodic_decay {

// The agent's own files of a store, as a run of the rule finds them.
class AgentFiles {
public:
  // Whether the core layer holds any beside engram's CORE.md, and the user
  // file among them. Rules never write them, so a run asks once.
  static AgentFiles of(const StoreView& store) {
    AgentFiles found;
    const auto core = store.layer_path(Layer::core);
    const auto files = store.files(Layer::core);
    found.m_present =
        std::any_of(files.begin(), files.end(), [&](const auto& file) { return file != core; });
    if (found.m_present) {
      found.m_user = UserFile::of(store);
    }
    return found;
  }

  // What the agent's own files say about `claim`: their claims it
  // duplicates or updates, as written or, in the user file, with the user
  // written alike on both sides (user_file.hpp). A line found both ways
  // keeps its verdict as written.
  std::vector<ClaimMatch> matches(const StoreView& store, const Claim& claim) const {
    std::vector<ClaimMatch> found;
    if (!m_present) {
      return found;
    }
    const auto core = store.layer_path(Layer::core);
    for (auto& match : store.related_claims(claim.text, Layer::core, ClaimDetail::unclassified)) {
      if (match.path != core) {
        found.push_back(std::move(match));
      }
    }
    for (auto& match : m_user.matches(store, claim)) {
      const bool known = std::any_of(found.begin(), found.end(), [&](const ClaimMatch& m) {
        return m.path == match.path && m.index == match.index;
      });
      if (!known) {
        found.push_back(std::move(match));
      }
    }
    return found;
  }

private:
  bool m_present = false;
  UserFile m_user;
};

// The first of `matches` with `relation`, if any.
inline const ClaimMatch* first_with(const std::vector<ClaimMatch>& matches, Relation relation) {
  for (const auto& match : matches) {
    if (match.relation == relation) {
      return &match;
    }
  }
  return nullptr;
}

// What to add to an absorbed claim's reason when it updates a line of the
// agent's own files, which stays as the agent wrote it ("" when none).
inline std::string newer_than_agent_line(const std::vector<ClaimMatch>& matches) {
  const auto* update = first_with(matches, Relation::update);
  if (update == nullptr) {
    return {};
  }
  return "; newer than \"" + text::one_line(update->text) + "\" in " + update->path +
         ", the agent's own file, which engram leaves as written";
}

} // namespace engram::episodic_decay
