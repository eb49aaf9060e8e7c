// Where episodic-decay files a claim: the agent's own topic file of the same
// subject, else the file of its layer sharing the most canonical tags with
// the episode, else a new file named from those tags, created with the
// episode's frontmatter. Part of the episodic-decay rule (episodic_decay.hpp).
#include "episodic_decay.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace engram::episodic_decay {
namespace {

int salience_rank(const std::optional<std::string>& salience) {
  return salience == "high" ? 3 : salience == "low" ? 1 : 2;
}

} // namespace

std::string EpisodicDecayRule::target_of(const StoreView& store, const Claim& claim,
                                         const std::string& source,
                                         const std::vector<std::string>& tags,
                                         const std::vector<std::string>& canon) {
  if (auto own = subject_topic(store, claim)) {
    return *own;
  }
  return kind_target(store, claim.kind, source, tags, canon);
}

std::string EpisodicDecayRule::kind_target(const StoreView& store, ClaimKind kind,
                                           const std::string& source,
                                           const std::vector<std::string>& tags,
                                           const std::vector<std::string>& canon) {
  switch (kind) {
  case ClaimKind::reference:
    return tagged_target(store, Layer::reference, tags, canon, source);
  case ClaimKind::behavioural:
  case ClaimKind::solution:
    // One feedback.md of sections, unless the agent keeps a topic file per
    // subject (Claude Code's feedback_<subject>.md).
    return topic_type(store, Layer::procedural).empty()
               ? store.layer_path(Layer::procedural) + "/feedback.md"
               : tagged_target(store, Layer::procedural, tags, canon, source);
  case ClaimKind::factual:
    return tagged_target(store, Layer::semantic, tags, canon, source);
  case ClaimKind::task:
  case ClaimKind::metadata:
    return archive_path(store, source);
  }
  return archive_path(store, source);
}

std::string EpisodicDecayRule::tagged_target(const StoreView& store, Layer layer,
                                             const std::vector<std::string>& tags,
                                             const std::vector<std::string>& canon,
                                             const std::string& source) {
  // The claims of one episode share its source and tags: the answer is
  // kept, per layer, until the next episode or until a file is created.
  if (const auto it = m_targets.find(layer); it != m_targets.end()) {
    return it->second;
  }
  return m_targets[layer] = choose_target(store, layer, tags, canon, source);
}

std::string EpisodicDecayRule::choose_target(const StoreView& store, Layer layer,
                                             const std::vector<std::string>& tags,
                                             const std::vector<std::string>& canon,
                                             const std::string& source) {
  // Only files sharing a tag can share two: count shares through the tag index.
  const auto& files = layer_files(store, layer);
  std::vector<const LayerFile*> sharing;
  for (const auto& tag : canon) {
    if (const auto it = files.by_tag.find(tag); it != files.by_tag.end()) {
      sharing.insert(sharing.end(), it->second.begin(), it->second.end());
    }
  }
  // Each with how many tags it shares: grouped by address, which is cheap;
  // the choice below does not depend on the order it sees them in.
  std::sort(sharing.begin(), sharing.end(), std::less<>());
  std::vector<std::pair<const LayerFile*, std::size_t>> candidates;
  for (const auto* file : sharing) {
    if (!candidates.empty() && candidates.back().first == file) {
      ++candidates.back().second;
    } else {
      candidates.emplace_back(file, 1);
    }
  }
  const std::string* chosen = nullptr;
  std::size_t best_shared = 0;
  const TargetFile* best_file = nullptr;
  for (const auto& [file, n] : candidates) {
    if (n < 2) {
      continue;
    }
    const auto* path = &file->first;
    const auto& candidate = file->second;
    const auto better = [&] {
      if (chosen == nullptr || n != best_shared) {
        return chosen == nullptr || n > best_shared;
      }
      if (candidate.salience != best_file->salience) {
        return candidate.salience > best_file->salience;
      }
      if (candidate.created != best_file->created) {
        return candidate.created > best_file->created;
      }
      return *path < *chosen; // the first in path order
    };
    if (better()) {
      chosen = path;
      best_shared = n;
      best_file = &candidate;
    }
  }
  if (chosen != nullptr) {
    return *chosen;
  }
  std::vector<std::string> sorted = tags;
  std::sort(sorted.begin(), sorted.end());
  std::string name;
  for (const auto& tag : sorted) {
    name += (name.empty() ? "" : "-") + tag;
  }
  if (name.empty()) {
    // No tags: name it after the episode, without its date.
    name = source.substr(source.rfind('/') + 1);
    name = name.substr(0, name.size() - 3);
    if (name.size() > 11 && engram::Date::parse(name.substr(0, 10))) {
      name = name.substr(11);
    }
  }
  // Named the way the agent names its topic files (`project_billing_api.md`
  // at the root), else in engram's layer folder.
  const auto type = topic_type(store, layer);
  if (!type.empty()) {
    auto slug = store.slug(name);
    std::replace(slug.begin(), slug.end(), '-', '_');
    return type + "_" + slug + ".md";
  }
  return store.layer_path(layer) + "/" + store.slug(name) + ".md";
}

std::string EpisodicDecayRule::topic_type(const StoreView& store, Layer layer) {
  const char* name = layer == Layer::procedural  ? "profile.topic_type.procedural"
                     : layer == Layer::reference ? "profile.topic_type.reference"
                                                 : "profile.topic_type.semantic";
  const auto value = store.setting(name);
  const auto* text = value ? std::get_if<std::string>(&*value) : nullptr;
  return text == nullptr ? std::string() : *text;
}

std::optional<std::string> EpisodicDecayRule::subject_topic(const StoreView& store,
                                                            const Claim& claim) {
  if (claim.kind == ClaimKind::task || claim.kind == ClaimKind::metadata ||
      claim.kind == ClaimKind::solution) {
    return std::nullopt;
  }
  const Layer layer = layer_for(claim.kind);
  if (topic_type(store, layer).empty()) {
    return std::nullopt;
  }
  std::optional<std::string> uncertain;
  for (const auto& match : store.related_claims(claim.text, layer, k_kinds)) {
    if (match.path.find('/') != std::string::npos || store.held(match.path)) {
      continue;
    }
    if (match.relation == Relation::update || match.relation == Relation::duplicate) {
      return match.path;
    }
    if (match.relation == Relation::uncertain && !uncertain) {
      uncertain = match.path;
    }
  }
  return uncertain;
}

std::optional<std::string> EpisodicDecayRule::across_layers(const StoreView& store,
                                                            const Claim& claim,
                                                            const std::string& source,
                                                            const std::vector<std::string>& tags,
                                                            const std::vector<std::string>& canon) {
  // A fact may be read as an instruction, or as where a thing is kept ("The
  // team docs live in Confluence"); an instruction or a pointer as a fact.
  std::vector<ClaimKind> others;
  if (claim.kind == ClaimKind::factual) {
    others = {ClaimKind::behavioural, ClaimKind::reference};
  } else if (claim.kind == ClaimKind::behavioural || claim.kind == ClaimKind::reference) {
    others = {ClaimKind::factual};
  }
  for (const auto other : others) {
    if (auto path = held_as(store, claim, other, source, tags, canon)) {
      return path;
    }
  }
  return std::nullopt;
}

std::optional<std::string> EpisodicDecayRule::held_as(const StoreView& store, const Claim& claim,
                                                      ClaimKind other, const std::string& source,
                                                      const std::vector<std::string>& tags,
                                                      const std::vector<std::string>& canon) {
  const Layer layer = layer_for(other);
  const bool topics = !topic_type(store, layer).empty();
  std::optional<std::string> home; // where the claim would go as the other kind
  for (const auto& match : store.related_claims(claim.text, layer, k_kinds)) {
    if (store.held(match.path)) {
      continue;
    }
    if (match.relation == Relation::duplicate) {
      return match.path;
    }
    if (match.relation != Relation::update) {
      continue;
    }
    // An update only where the claim would be filed as the other kind, as
    // claim_held looks for one only in the target: a claim of the same
    // subject in a file about another topic is not the one it replaces.
    if (topics && match.path.find('/') == std::string::npos) {
      return match.path;
    }
    if (!home) {
      home = kind_target(store, other, source, tags, canon);
    }
    if (match.path == *home) {
      return match.path;
    }
  }
  return std::nullopt;
}

Layer EpisodicDecayRule::layer_for(ClaimKind kind) {
  return kind == ClaimKind::reference                                    ? Layer::reference
         : kind == ClaimKind::behavioural || kind == ClaimKind::solution ? Layer::procedural
                                                                         : Layer::semantic;
}

EpisodicDecayRule::LayerFiles& EpisodicDecayRule::layer_files(const StoreView& store, Layer layer) {
  auto [it, fresh] = m_layers.try_emplace(layer);
  if (fresh) {
    for (const auto& path : store.files(layer)) {
      add_file(store, it->second, path);
    }
  }
  return it->second;
}

void EpisodicDecayRule::add_file(const StoreView& store, LayerFiles& files,
                                 const std::string& path) {
  const auto created = store.date(path, "created");
  TargetFile file{canonical_tags(store, store.list(path, "tags")),
                  salience_rank(store.field(path, "salience")),
                  created ? created->to_string() : std::string()};
  const auto [it, fresh] = files.files.insert_or_assign(path, std::move(file));
  if (fresh) {
    for (const auto& tag : it->second.canon) {
      files.by_tag[tag].push_back(&*it);
    }
  }
}

std::vector<std::string> EpisodicDecayRule::canonical_tags(const StoreView& store,
                                                           const std::vector<std::string>& tags) {
  std::vector<std::string> out;
  for (const auto& tag : tags) {
    auto [it, fresh] = m_canonical.try_emplace(tag);
    if (fresh) {
      it->second = store.canonical_tag(tag);
    }
    if (!it->second.empty()) {
      out.push_back(it->second);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void EpisodicDecayRule::create(StoreView& store, const std::string& target, Layer layer,
                               const std::vector<std::string>& tags, const std::string& source) {
  const auto today = store.today().to_string();
  const bool procedural = layer == Layer::procedural;
  const bool reference = layer == Layer::reference;
  std::string tag_list;
  const auto topic = topic_type(store, layer);
  for (const auto& tag : procedural&& topic.empty() ? std::vector<std::string>{"feedback"} : tags) {
    tag_list += (tag_list.empty() ? "" : ", ") + tag;
  }
  const auto field = [&](std::string_view key, std::string fallback) {
    auto value = store.field(source, std::string(key));
    const bool plain =
        value && !value->empty() && value->find_first_of(":#\n[]{}\"'") == std::string::npos;
    return plain ? *value : fallback;
  };
  const std::string type = !topic.empty() ? topic
                           : procedural   ? "procedural"
                           : reference    ? "reference"
                                          : "semantic";
  const std::string title = procedural ? "Feedback" : reference ? "References" : "Knowledge";
  const std::string about = tag_list.empty() ? "session notes" : tag_list;
  const std::string agent_fields = topic.empty()
                                       ? std::string()
                                       : "name: " + title + " on " + about +
                                             "\ndescription: " + knowledge::lower(title) + " on " +
                                             about + ", filed by engram from session notes\n";
  const auto status =
      knowledge::lower(field("status", "")) == "confirmed" ? "confirmed" : "provisional";
  store.write(target, "---\n" + agent_fields + "type: " + type + "\ntags: [" + tag_list +
                          "]\nsalience: " + field("salience", "medium") +
                          "\nconfidence: " + field("confidence", "medium") + "\nsource: " +
                          field("source", procedural  ? "instructed"
                                          : reference ? "referenced"
                                                      : "observed") +
                          "\nstatus: " + status + "\ntrigger: []\nrelated: []\ncreated: " + today +
                          "\nlast-accessed: " + today + "\n---\n# " + title + "\n");
  if (const auto it = m_layers.find(layer); it != m_layers.end()) {
    add_file(store, it->second, target);
  }
  m_targets.clear(); // a new file can be the better target
}

} // namespace engram::episodic_decay
