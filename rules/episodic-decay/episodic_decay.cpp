// The episodic-decay rule: an episodic memory past its decay date is split
// into claims; each claim is absorbed where it belongs (semantic, procedural,
// reference), recorded as a duplicate of what is already there, or updates an
// older claim that is kept in a superseded marker. The file is removed only
// when every one of its claims is accounted for in the record.
// The rule's class is in episodic_decay.hpp; choosing a claim's target is
// targets.cpp's, filing it there absorb.cpp's.
#include "episodic_decay.hpp"

#include "engram/plugin.hpp"

#include <string>
#include <vector>

namespace engram::episodic_decay {

void EpisodicDecayRule::run(StoreView& store) {
  // The rule object lives across runs; its caches must not.
  m_layers.clear();
  m_canonical.clear();
  m_targets.clear();
  m_headings.clear();
  m_agent_files = AgentFiles::of(store);
  // The long part of a full run on a large store: the host draws its progress.
  const auto episodes = store.files(Layer::episodic);
  for (std::size_t done = 0; done < episodes.size(); ++done) {
    store.progress(done, episodes.size(), "episodic files");
    const auto& path = episodes[done];
    const auto when = store.decay_date(path);
    if (!when || !(*when < store.today()) || store.held(path)) {
      continue; // not yet, or never (a date engram cannot read never removes a
                // file), or an undo brought it back
    }
    decay(store, path, *when);
  }
  store.progress(episodes.size(), episodes.size(), "episodic files");
}

void EpisodicDecayRule::decay(StoreView& store, const std::string& path, engram::Date when) {
  m_targets.clear(); // chosen for this episode's source and tags only
  const auto tags = store.list(path, "tags");
  const auto canon = canonical_tags(store, tags);
  const auto claims = store.claims_of(path);
  // Every target first: an episode whose claims would go into a file an
  // undo holds waits, whole, until the hold ends.
  // An agent with a curated memory (OpenClaw's MEMORY.md) gets its notes'
  // knowledge there, while it has room (curated.hpp).
  // What the agent's own files (OpenClaw's USER.md, …) already state is
  // known, and goes nowhere (agent_files.hpp).
  auto curated = engram::episodic_decay::Curated::of(store);
  std::vector<std::string> targets;
  std::vector<std::vector<ClaimMatch>> agent;
  for (const auto& claim : claims) {
    agent.push_back(m_agent_files.matches(store, claim));
    if (const auto* known = first_with(agent.back(), Relation::duplicate)) {
      targets.push_back(known->path);
      continue;
    }
    targets.push_back(curated.takes(claim) ? curated.path()
                                           : target_of(store, claim, path, tags, canon));
    if (store.held(targets.back())) {
      return;
    }
  }
  // An agent whose notes are its own searchable log (OpenClaw's daily
  // notes) keeps them: their knowledge is copied out, their tasks and
  // notes about the note stay in them, and the host keeps the note from
  // being taken again while it is unchanged.
  const bool keep = keeps_notes(store);
  for (std::size_t i = 0; i < claims.size(); ++i) {
    if (claims[i].kind == ClaimKind::task || claims[i].kind == ClaimKind::metadata) {
      if (!keep) {
        keep_in_archive(store, claims[i], path);
      }
    } else if (const auto* known = first_with(agent[i], Relation::duplicate)) {
      store.record(Action{"", "duplicate", claims[i].text, path, known->path,
                          "already in the agent's own file as \"" + one_line(known->text) + "\""});
    } else if (!curated.path().empty() && targets[i] == curated.path()) {
      engram::episodic_decay::absorb_curated(store, claims[i], path, targets[i],
                                             newer_than_agent_line(agent[i]));
    } else {
      absorb(store, claims[i], path, targets[i], tags, canon);
    }
  }
  if (!keep) {
    store.remove(path);
  }
  store.record(Action{"", "decayed", "", path, "",
                      "decay date " + when.to_string() + " is before " + store.today().to_string() +
                          "; " + std::to_string(claims.size()) + " claims accounted for" +
                          (keep ? "; the note stays where the agent wrote it" : "")});
}

bool EpisodicDecayRule::keeps_notes(const StoreView& store) {
  const auto keep = store.setting("profile.keep_notes");
  const auto* value = keep ? std::get_if<bool>(&*keep) : nullptr;
  return value != nullptr && *value;
}

} // namespace engram::episodic_decay

ENGRAM_RULE_PLUGIN(
    engram::episodic_decay::EpisodicDecayRule, "episodic-decay", engram::Phase::decay,
    "absorbs expired episodic memories claim by claim into semantic, procedural and reference",
    "0.1.0", false)
