// The episodic-decay rule: an episodic memory past its decay date is split
// into claims; each claim is absorbed where it belongs (semantic, procedural,
// reference), recorded as a duplicate of what is already there, or updates an
// older claim that is kept in a superseded marker. The file is removed only
// when every one of its claims is accounted for in the record.
#include "curated.hpp"
#include "engram/plugin.hpp"
#include "engram/text.hpp"
#include "sections.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using engram::Action;
using engram::Claim;
using engram::ClaimKind;
using engram::Layer;
using engram::Relation;
using engram::StoreView;
using engram::episodic_decay::find_section;
using engram::episodic_decay::Headings;
using engram::episodic_decay::section_insertion;
using engram::knowledge::appendix;
namespace knowledge = engram::knowledge;
using engram::knowledge::as_entry;
using engram::knowledge::is_item;
using engram::knowledge::one_line;
using engram::knowledge::superseded_marker;

int salience_rank(const std::optional<std::string>& salience) {
  return salience == "high" ? 3 : salience == "low" ? 1 : 2;
}

// `heading` without a leading time of day ("09:12 - Backups" → "Backups"):
// daily notes head their entries with the time they were written, which
// names no subject.
std::string without_time(std::string heading) {
  std::size_t at = 0;
  const auto number = [&](std::size_t most) { // up to `most` digits at `at`; how many
    std::size_t n = 0;
    while (n < most && at < heading.size() &&
           std::isdigit(static_cast<unsigned char>(heading[at]))) {
      ++at;
      ++n;
    }
    return n;
  };
  const auto colon_and_two = [&] {
    if (at < heading.size() && heading[at] == ':') {
      ++at;
      return number(2) == 2;
    }
    return false;
  };
  if (number(2) == 0 || !colon_and_two()) {
    return heading;
  }
  const std::size_t minutes_end = at;
  if (!colon_and_two()) {
    at = minutes_end; // no seconds
  }
  const auto rest = heading.find_first_not_of(" -\t|:", at);
  if (rest == at || rest == std::string::npos) {
    return heading; // "09:12" alone, or "09:120": not a time before a title
  }
  return heading.substr(rest);
}

// The `## Title` a behavioural claim is filed under: its nearest heading, else its first words.
std::string title_for(const Claim& claim) {
  if (!claim.context.empty()) {
    const auto sep = claim.context.rfind(" > ");
    return without_time(sep == std::string::npos ? claim.context : claim.context.substr(sep + 3));
  }
  std::string text = one_line(claim.text);
  if (is_item(text)) {
    text = text.substr(text.find(' ') + 1);
  }
  std::string title;
  int words = 0;
  for (std::size_t i = 0; i < text.size() && words < 8; ++i) {
    if (text[i] == ' ') {
      ++words;
      if (words == 8) {
        break;
      }
    }
    title += text[i];
  }
  while (!title.empty() &&
         std::string_view(".,;:!?").find(title.back()) != std::string_view::npos) {
    title.pop_back();
  }
  return title.empty() ? "Feedback" : title;
}

// What this rule reads of a match's kind: only whether it is a solution,
// which an unclassified match still says.
constexpr auto k_kinds = engram::ClaimDetail::unclassified;

class EpisodicDecayRule final : public engram::Rule {
public:
  void run(StoreView& store) override {
    // The rule object lives across runs; its caches must not.
    m_layers.clear();
    m_canonical.clear();
    m_targets.clear();
    m_headings.clear();
    for (const auto& path : store.files(Layer::episodic)) {
      const auto when = store.decay_date(path);
      if (!when || !(*when < store.today()) || store.held(path)) {
        continue; // not yet, or never (a date engram cannot read never removes a
                  // file), or an undo brought it back
      }
      decay(store, path, *when);
    }
  }

private:
  void decay(StoreView& store, const std::string& path, engram::Date when) {
    m_targets.clear(); // chosen for this episode's source and tags only
    const auto tags = store.list(path, "tags");
    const auto canon = canonical_tags(store, tags);
    const auto claims = store.claims_of(path);
    // Every target first: an episode whose claims would go into a file an
    // undo holds waits, whole, until the hold ends.
    // An agent with a curated memory (OpenClaw's MEMORY.md) gets its notes'
    // knowledge there, while it has room (curated.hpp).
    auto curated = engram::episodic_decay::Curated::of(store);
    std::vector<std::string> targets;
    for (const auto& claim : claims) {
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
      } else if (!curated.path().empty() && targets[i] == curated.path()) {
        engram::episodic_decay::absorb_curated(store, claims[i], path, targets[i]);
      } else {
        absorb(store, claims[i], path, targets[i], tags);
      }
    }
    if (!keep) {
      store.remove(path);
    }
    store.record(Action{"", "decayed", "", path, "",
                        "decay date " + when.to_string() + " is before " +
                            store.today().to_string() + "; " + std::to_string(claims.size()) +
                            " claims accounted for" +
                            (keep ? "; the note stays where the agent wrote it" : "")});
  }

  // True when the store's profile keeps decayed notes in place (profile.keep_notes).
  static bool keeps_notes(const StoreView& store) {
    const auto keep = store.setting("profile.keep_notes");
    const auto* value = keep ? std::get_if<bool>(&*keep) : nullptr;
    return value != nullptr && *value;
  }

  // The file a claim of episode `source` goes to, by its kind.
  std::string target_of(const StoreView& store, const Claim& claim, const std::string& source,
                        const std::vector<std::string>& tags,
                        const std::vector<std::string>& canon) {
    if (auto own = subject_topic(store, claim)) {
      return *own;
    }
    switch (claim.kind) {
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

  // The file with the most shared canonical tags (at least 2); ties: salience,
  // then newer `created`, then path. None: a new file named from the sorted tags.
  std::string tagged_target(const StoreView& store, Layer layer,
                            const std::vector<std::string>& tags,
                            const std::vector<std::string>& canon, const std::string& source) {
    // The claims of one episode share its source and tags: the answer is
    // kept, per layer, until the next episode or until a file is created.
    if (const auto it = m_targets.find(layer); it != m_targets.end()) {
      return it->second;
    }
    return m_targets[layer] = choose_target(store, layer, tags, canon, source);
  }

  // tagged_target, worked out.
  std::string choose_target(const StoreView& store, Layer layer,
                            const std::vector<std::string>& tags,
                            const std::vector<std::string>& canon, const std::string& source) {
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

  // The `type` the store's profile gives a new topic file of `layer`
  // (`profile.topic_type.<layer>`), "" when new files go to engram's folders.
  static std::string topic_type(const StoreView& store, Layer layer) {
    const char* name = layer == Layer::procedural  ? "profile.topic_type.procedural"
                       : layer == Layer::reference ? "profile.topic_type.reference"
                                                   : "profile.topic_type.semantic";
    const auto value = store.setting(name);
    const auto* text = value ? std::get_if<std::string>(&*value) : nullptr;
    return text == nullptr ? std::string() : *text;
  }

  // The agent's own topic file (at the root: Claude Code's) that holds a claim
  // of the same subject as `claim` — one it updates, else one it may update —
  // when the agent keeps topic files; its topic files carry no tags to match.
  static std::optional<std::string> subject_topic(const StoreView& store, const Claim& claim) {
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

  // The layer a claim of `kind` is filed in.
  static Layer layer_for(ClaimKind kind) {
    return kind == ClaimKind::reference                                    ? Layer::reference
           : kind == ClaimKind::behavioural || kind == ClaimKind::solution ? Layer::procedural
                                                                           : Layer::semantic;
  }

  // What choosing a target needs to know of one file of a layer.
  struct TargetFile {
    std::vector<std::string> canon; // its canonical tags, sorted, unique
    int salience = 2;               // its salience rank
    std::string created;            // its `created` date as text ("" when none)
  };

  // A file of a layer: its path and what choosing a target needs of it.
  using LayerFile = std::pair<const std::string, TargetFile>;

  // The files of one layer that claims can go to, and which hold each canonical tag.
  struct LayerFiles {
    std::map<std::string, TargetFile> files;                     // by path
    std::map<std::string, std::vector<const LayerFile*>> by_tag; // tag → files
  };

  // The files of `layer`, read once per run; files this rule creates are added as it creates them.
  LayerFiles& layer_files(const StoreView& store, Layer layer) {
    auto [it, fresh] = m_layers.try_emplace(layer);
    if (fresh) {
      for (const auto& path : store.files(layer)) {
        add_file(store, it->second, path);
      }
    }
    return it->second;
  }

  // Reads one file into a layer's list (this rule never changes tags, salience or dates).
  void add_file(const StoreView& store, LayerFiles& files, const std::string& path) {
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

  // Canonical tags, sorted and unique; each distinct tag is stemmed once per run.
  std::vector<std::string> canonical_tags(const StoreView& store,
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

  // A new target's frontmatter says what its source said: the episode's
  // salience, confidence and source; confirmed only when the episode was,
  // else provisional (a medium, open note is not a confirmed fact). The file
  // itself is new: created today, so dedupe leaves it alone for its first days.
  // A topic file of the agent's kind (Claude Code's) also gets the `name`,
  // `description` and `type` its loader reads.
  void create(StoreView& store, const std::string& target, Layer layer,
              const std::vector<std::string>& tags, const std::string& source) {
    const auto today = store.today().to_string();
    const bool procedural = layer == Layer::procedural;
    const bool reference = layer == Layer::reference;
    std::string tag_list;
    const auto topic = topic_type(store, layer);
    for (const auto& tag :
         procedural&& topic.empty() ? std::vector<std::string>{"feedback"} : tags) {
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
    const std::string agent_fields =
        topic.empty()
            ? std::string()
            : "name: " + title + " on " + about + "\ndescription: " + knowledge::lower(title) +
                  " on " + about + ", filed by engram from session notes\n";
    const auto status =
        knowledge::lower(field("status", "")) == "confirmed" ? "confirmed" : "provisional";
    store.write(target, "---\n" + agent_fields + "type: " + type + "\ntags: [" + tag_list +
                            "]\nsalience: " + field("salience", "medium") +
                            "\nconfidence: " + field("confidence", "medium") + "\nsource: " +
                            field("source", procedural  ? "instructed"
                                            : reference ? "referenced"
                                                        : "observed") +
                            "\nstatus: " + status + "\ntrigger: []\nrelated: []\ncreated: " +
                            today + "\nlast-accessed: " + today + "\n---\n# " + title + "\n");
    if (const auto it = m_layers.find(layer); it != m_layers.end()) {
      add_file(store, it->second, target);
    }
    m_targets.clear(); // a new file can be the better target
  }

  // Files a claim of episode `source` in `target`, unless the store already
  // holds it (recorded as a duplicate) or it updates a claim of the target
  // (superseded).
  void absorb(StoreView& store, const Claim& claim, const std::string& source,
              const std::string& target, const std::vector<std::string>& tags) {
    std::optional<std::string> uncertain; // a claim of the target this one may update
    if (claim.kind == ClaimKind::solution ? solution_held(store, claim, source, target)
                                          : claim_held(store, claim, source, target, uncertain)) {
      return;
    }
    if (!store.exists(target)) {
      create(store, target, layer_for(claim.kind), tags, source);
    }
    // Read in place, and edited in place: the target can be long.
    const std::string& body = store.body(target);
    std::string added; // what the claim adds to the target, for m_headings
    const auto edit = claim.kind == ClaimKind::solution
                          ? solution_edit(store, claim, source, target, body, added)
                          : claim_edit(store, claim, target, body, added);
    if (!edit) {
      return;
    }
    if (uncertain) {
      store.record(Action{"", "flagged", claim.text, source, target,
                          "kept beside \"" + one_line(*uncertain) +
                              "\": the same subject, one word replaced; both kept, for a person "
                              "to judge which holds"});
    }
    store.replace_in_body(target, edit->at, edit->count, edit->text);
    m_headings.wrote(store, target, added);
    store.record(Action{"", "absorbed", claim.text, source, target, kind_name(claim.kind)});
  }

  // True when a solution is a duplicate of a claim of the target that it
  // duplicates as text, recorded as such; against another solution only
  // titles count, and an equal title is amended (solution_edit), never a duplicate.
  static bool solution_held(StoreView& store, const Claim& claim, const std::string& source,
                            const std::string& target) {
    for (const auto& match : store.duplicate_claims(claim.text, Layer::procedural, k_kinds)) {
      if (match.path == target && match.kind != ClaimKind::solution &&
          match.relation == Relation::duplicate) {
        store.record(Action{"", "duplicate", claim.text, source, target,
                            "already there as \"" + one_line(match.text) + "\""});
        return true;
      }
    }
    return false;
  }

  // True when a claim (not a solution) is accounted for by what its layer
  // holds: recorded as a duplicate, or superseding the claim of the target it
  // updates. Every claim of the layer it duplicates or updates is looked at
  // in path order: the target's own first (a duplicate there, else its first
  // update), then a duplicate in any other file. Knowledge the store has
  // anywhere is not appended again. Sets `uncertain` to the first claim of
  // the target it may update.
  bool claim_held(StoreView& store, const Claim& claim, const std::string& source,
                  const std::string& target, std::optional<std::string>& uncertain) {
    const Layer layer = claim.kind == ClaimKind::reference     ? Layer::reference
                        : claim.kind == ClaimKind::behavioural ? Layer::procedural
                                                               : Layer::semantic;
    const auto related = store.related_claims(claim.text, layer, k_kinds);
    const engram::ClaimMatch* update = nullptr;
    for (const auto& match : related) {
      if (match.path != target) {
        continue;
      }
      if (match.relation == Relation::uncertain && !uncertain) {
        uncertain = match.text;
      }
      if (match.relation == Relation::duplicate) {
        store.record(Action{"", "duplicate", claim.text, source, target,
                            "already there as \"" + one_line(match.text) + "\""});
        return true;
      }
      if (match.relation == Relation::update && update == nullptr) {
        update = &match;
      }
    }
    if (update != nullptr) {
      supersede(store, claim, update->text, source, target);
      return true;
    }
    for (const auto& match : related) {
      if (match.path != target && match.relation == Relation::duplicate) {
        store.record(Action{"", "duplicate", claim.text, source, match.path,
                            "already there as \"" + one_line(match.text) + "\""});
        return true;
      }
    }
    return false;
  }

  // The edit that files a solution in `body` (the target's), amending the
  // section of the same title if there is one, and what it adds in `added`;
  // nullopt, recorded as a duplicate, when that section holds every line.
  std::optional<engram::knowledge::Splice>
  solution_edit(StoreView& store, const Claim& claim, const std::string& source,
                const std::string& target, const std::string& body, std::string& added) {
    const auto heading = "Solution: " + claim.title;
    const auto section = m_headings.may_have(store, target, body, heading)
                             ? find_section(body, heading)
                             : std::nullopt;
    if (!section) {
      added = claim.text;
      return engram::knowledge::Splice{body.size(), 0, appendix(body, added, true)};
    }
    const auto amended = amend_solution(store, claim, source, target, body, *section);
    if (!amended) {
      store.record(Action{"", "duplicate", claim.text, source, target,
                          "solution '" + claim.title + "' already holds every line"});
      return std::nullopt;
    }
    added = *amended;
    return engram::knowledge::Splice{section->heading, section->end - section->heading, *amended};
  }

  // The edit that files a claim (not a solution) in `body` (the target's),
  // and what it adds in `added`.
  engram::knowledge::Splice claim_edit(const StoreView& store, const Claim& claim,
                                       const std::string& target, const std::string& body,
                                       std::string& added) {
    if (claim.kind == ClaimKind::behavioural) {
      const auto title = title_for(claim);
      const auto section = m_headings.may_have(store, target, body, title)
                               ? find_section(body, title)
                               : std::nullopt;
      added = section ? as_entry(claim.text) : "## " + title + "\n\n" + as_entry(claim.text);
      return section ? section_insertion(body, *section, added)
                     : engram::knowledge::Splice{body.size(), 0, appendix(body, added, true)};
    }
    // Filed in the section its episode's heading names ("# Rate limits"
    // into "## Rate limits"), else at the end.
    added = as_entry(claim.text);
    const auto section = engram::episodic_decay::matching_section(store, body, claim.context);
    return section ? section_insertion(body, *section, added)
                   : engram::knowledge::Splice{
                         body.size(), 0,
                         appendix(body, added, claim.text.find('\n') != std::string::npos)};
  }

  // The `**Label:**` a line of a solution opens with ("**Solution:**"), or "".
  static std::string_view solution_label(std::string_view line) {
    if (!line.starts_with("**")) {
      return {};
    }
    const auto end = line.find(":**", 2);
    return end == std::string_view::npos ? std::string_view() : line.substr(0, end + 3);
  }

  // The section of an existing `## Solution:` amended by a newer one: a
  // labelled line it states anew ("**Solution:** …") replaces the old one,
  // which is kept in a superseded marker below it; lines it lacks are added
  // at its end. nullopt when the section already holds every line.
  static std::optional<std::string> amend_solution(StoreView& store, const Claim& claim,
                                                   const std::string& source,
                                                   const std::string& target,
                                                   const std::string& body,
                                                   const engram::knowledge::Section& section) {
    std::string text = body.substr(section.heading, section.end - section.heading);
    std::string missing;
    const auto lines = engram::text::split_lines(claim.text);
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const auto line = std::string(engram::text::without_eol(lines[i]));
      if (engram::text::is_blank(line) || text.find(line) != std::string::npos) {
        continue;
      }
      const auto label = solution_label(line);
      const auto at = label.empty() ? std::string::npos : text.find("\n" + std::string(label));
      if (at == std::string::npos) {
        missing += line + "\n";
        continue;
      }
      const auto start = at + 1;
      const auto end = std::min(text.find('\n', start), text.size());
      const auto old_line = text.substr(start, end - start);
      text.replace(start, end - start,
                   line + "\n" + engram::knowledge::superseded_marker(store.today(), old_line));
      store.record(Action{"", "superseded", line, source, target,
                          "updates \"" + one_line(old_line) + "\" of solution '" + claim.title +
                              "', kept in a superseded marker"});
    }
    if (!missing.empty()) {
      const bool spaced = text.ends_with("\n\n"); // a blank line before the next heading stays
      const auto splice = section_insertion(text, {0, text.size()}, missing);
      text.replace(splice.at, splice.count, splice.text);
      if (spaced && !text.ends_with("\n\n")) {
        text += '\n';
      }
    }
    if (text == body.substr(section.heading, section.end - section.heading)) {
      return std::nullopt;
    }
    return text;
  }

  // Where the tasks and session lines of episode `source` are kept.
  static std::string archive_path(const StoreView& store, const std::string& source) {
    return store.layer_path(Layer::archive) + "/" + source;
  }

  // A task or a line about the session is no lasting knowledge: it is kept
  // with its episode in archive/ (never in semantic/ or CORE.md), where
  // git and a person can still find it.
  static void keep_in_archive(StoreView& store, const Claim& claim, const std::string& source) {
    const auto target = archive_path(store, source);
    if (!store.exists(target)) {
      const auto created = store.date(source, "created");
      store.write(target, "---\ntype: episodic\nstatus: archived\ncreated: " +
                              (created ? created->to_string() : store.today().to_string()) +
                              "\narchived: " + store.today().to_string() + "\n---\n# Kept from " +
                              source + "\n");
    }
    const std::string& body = store.body(target);
    store.replace_in_body(target, body.size(), 0, appendix(body, as_entry(claim.text), false));
    store.record(Action{"", "archived", claim.text, source, target,
                        claim.kind == ClaimKind::task
                            ? "a task, not lasting knowledge; kept with its episode"
                            : "about the session, not knowledge; kept with its episode"});
  }

  void supersede(StoreView& store, const Claim& claim, const std::string& old_text,
                 const std::string& source, const std::string& target) {
    const std::string& body = store.body(target);
    const auto at = body.find(old_text);
    // An item superseded before carries its markers as continuation lines:
    // the marker quotes only the claim itself, and the older markers follow,
    // so a history of updates stays a flat list instead of nesting.
    std::string own;
    std::string markers;
    for (const auto& line : engram::text::split_lines(old_text)) {
      const auto bare = engram::text::without_eol(line);
      const auto start = bare.find_first_not_of(" \t");
      if (start != std::string_view::npos && bare.substr(start).starts_with("<!-- superseded ")) {
        markers += "\n" + std::string(bare);
      } else {
        own += line;
      }
    }
    while (!own.empty() && (own.back() == '\n' || own.back() == '\r')) {
      own.pop_back();
    }
    std::string replacement =
        is_item(old_text) && !is_item(claim.text) ? "- " + claim.text : claim.text;
    const std::string indent = is_item(old_text) ? "  " : "";
    replacement += "\n" + indent + superseded_marker(store.today(), own) + markers;
    if (at == std::string::npos) {
      // The old text is kept in the marker either way.
      store.replace_in_body(target, body.size(), 0, appendix(body, replacement, false));
    } else {
      store.replace_in_body(target, at, old_text.size(), replacement);
    }
    m_headings.wrote(store, target, replacement);
    store.record(Action{"", "superseded", claim.text, source, target,
                        "updates \"" + one_line(own) + "\", kept in a superseded marker"});
  }

  // The files claims can go to, per layer, read once per run.
  std::map<Layer, LayerFiles> m_layers;
  // Canonical form of each tag seen this run.
  std::map<std::string, std::string> m_canonical;
  // The targets chosen for the episode being decayed, by layer, since a file was last created.
  std::map<Layer, std::string> m_targets;
  // The `## ` titles of the targets claims were filed in this run.
  Headings m_headings;

  static std::string kind_name(ClaimKind kind) {
    switch (kind) {
    case ClaimKind::factual:
      return "factual";
    case ClaimKind::behavioural:
      return "behavioural";
    case ClaimKind::reference:
      return "reference";
    case ClaimKind::solution:
      return "solution";
    case ClaimKind::task:
      return "task";
    case ClaimKind::metadata:
      return "metadata";
    }
    return "factual";
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(
    EpisodicDecayRule, "episodic-decay", engram::Phase::decay,
    "absorbs expired episodic memories claim by claim into semantic, procedural and reference",
    "0.1.0", false)
