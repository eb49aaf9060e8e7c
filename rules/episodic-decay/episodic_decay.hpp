// The episodic-decay rule's class, shared by the files that define it:
// episodic_decay.cpp finds the expired episodes and decays each, targets.cpp
// chooses the file each claim goes to (creating it when none fits), absorb.cpp
// files a claim there or records why it need not be, and keeps tasks in
// archive/.
#pragma once

#include "agent_files.hpp"
#include "curated.hpp"
#include "engram/rule.hpp"
#include "sections.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace engram::episodic_decay {

using knowledge::appendix;
using knowledge::as_entry;
using knowledge::is_item;
using knowledge::one_line;
using knowledge::superseded_marker;

class EpisodicDecayRule final : public Rule {
public:
  void run(StoreView& store) override;

private:
  // What this rule reads of a match's kind: only whether it is a solution,
  // which an unclassified match still says.
  static constexpr auto k_kinds = ClaimDetail::unclassified;

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

  // Decaying one episode (episodic_decay.cpp).

  void decay(StoreView& store, const std::string& path, engram::Date when);

  // True when the store's profile keeps decayed notes in place (profile.keep_notes).
  static bool keeps_notes(const StoreView& store);

  // Choosing a claim's target (targets.cpp).

  // The file a claim of episode `source` goes to, by its kind.
  std::string target_of(const StoreView& store, const Claim& claim, const std::string& source,
                        const std::vector<std::string>& tags,
                        const std::vector<std::string>& canon);

  // The file a claim of `kind` goes to when no topic file claims it.
  std::string kind_target(const StoreView& store, ClaimKind kind, const std::string& source,
                          const std::vector<std::string>& tags,
                          const std::vector<std::string>& canon);

  // The file of another layer (semantic for an instruction or a pointer,
  // procedural or reference for a fact) that holds the claim already, or a
  // claim it updates; nullopt when none does. Whether a claim is a fact, an
  // instruction or a pointer is read from its words, and many read either
  // way ("Replies can now be up to 400 words" after "Keep replies under 200
  // words", "The team docs moved to Notion" after "The team docs live in
  // Confluence"): the store's knowledge decides.
  std::optional<std::string> across_layers(const StoreView& store, const Claim& claim,
                                           const std::string& source,
                                           const std::vector<std::string>& tags,
                                           const std::vector<std::string>& canon);

  // across_layers in the layer of claims of kind `other`.
  std::optional<std::string> held_as(const StoreView& store, const Claim& claim, ClaimKind other,
                                     const std::string& source,
                                     const std::vector<std::string>& tags,
                                     const std::vector<std::string>& canon);

  // The file with the most shared canonical tags (at least 2); ties: salience,
  // then newer `created`, then path. None: a new file named from the sorted tags.
  std::string tagged_target(const StoreView& store, Layer layer,
                            const std::vector<std::string>& tags,
                            const std::vector<std::string>& canon, const std::string& source);

  // tagged_target, worked out.
  std::string choose_target(const StoreView& store, Layer layer,
                            const std::vector<std::string>& tags,
                            const std::vector<std::string>& canon, const std::string& source);

  // The `type` the store's profile gives a new topic file of `layer`
  // (`profile.topic_type.<layer>`), "" when new files go to engram's folders.
  static std::string topic_type(const StoreView& store, Layer layer);

  // The agent's own topic file (at the root: Claude Code's) that holds a claim
  // of the same subject as `claim` — one it updates, else one it may update —
  // when the agent keeps topic files; its topic files carry no tags to match.
  static std::optional<std::string> subject_topic(const StoreView& store, const Claim& claim);

  // The layer a claim of `kind` is filed in.
  static Layer layer_for(ClaimKind kind);

  // The files of `layer`, read once per run; files this rule creates are added as it creates them.
  LayerFiles& layer_files(const StoreView& store, Layer layer);

  // Reads one file into a layer's list (this rule never changes tags, salience or dates).
  void add_file(const StoreView& store, LayerFiles& files, const std::string& path);

  // Canonical tags, sorted and unique; each distinct tag is stemmed once per run.
  std::vector<std::string> canonical_tags(const StoreView& store,
                                          const std::vector<std::string>& tags);

  // A new target's frontmatter says what its source said: the episode's
  // salience, confidence and source; confirmed only when the episode was,
  // else provisional (a medium, open note is not a confirmed fact). The file
  // itself is new: created today, so dedupe leaves it alone for its first days.
  // A topic file of the agent's kind (Claude Code's) also gets the `name`,
  // `description` and `type` its loader reads.
  void create(StoreView& store, const std::string& target, Layer layer,
              const std::vector<std::string>& tags, const std::string& source);

  // Filing a claim in its target (absorb.cpp).

  // Files a claim of episode `source` in `target`, unless the store already
  // holds it (recorded as a duplicate) or it updates a claim of the target
  // (superseded); the other layer's claims are looked at once its own
  // layer's hold neither (across_layers).
  void absorb(StoreView& store, const Claim& claim, const std::string& source,
              const std::string& target, const std::vector<std::string>& tags,
              const std::vector<std::string>& canon);

  // True when a solution is a duplicate of a claim of the target that it
  // duplicates as text, recorded as such; against another solution only
  // titles count, and an equal title is amended (solution_edit), never a duplicate.
  static bool solution_held(StoreView& store, const Claim& claim, const std::string& source,
                            const std::string& target);

  // True when a claim (not a solution) is accounted for by what its layer
  // holds: recorded as a duplicate, or superseding the claim of the target it
  // updates. Every claim of the layer it duplicates or updates is looked at
  // in path order: the target's own first (a duplicate there, else its first
  // update), then a duplicate in any other file. Knowledge the store has
  // anywhere is not appended again. Sets `uncertain` to the first claim of
  // the target it may update.
  bool claim_held(StoreView& store, const Claim& claim, const std::string& source,
                  const std::string& target, std::optional<std::string>& uncertain);

  // The edit that files a solution in `body` (the target's), amending the
  // section of the same title if there is one, and what it adds in `added`;
  // nullopt, recorded as a duplicate, when that section holds every line.
  std::optional<engram::knowledge::Splice>
  solution_edit(StoreView& store, const Claim& claim, const std::string& source,
                const std::string& target, const std::string& body, std::string& added);

  // The edit that files a claim (not a solution) in `body` (the target's),
  // and what it adds in `added`.
  engram::knowledge::Splice claim_edit(const StoreView& store, const Claim& claim,
                                       const std::string& target, const std::string& body,
                                       std::string& added);

  // The `**Label:**` a line of a solution opens with ("**Solution:**"), or "".
  static std::string_view solution_label(std::string_view line);

  // The section of an existing `## Solution:` amended by a newer one: a
  // labelled line it states anew ("**Solution:** …") replaces the old one,
  // which is kept in a superseded marker below it; lines it lacks are added
  // at its end. nullopt when the section already holds every line.
  static std::optional<std::string> amend_solution(StoreView& store, const Claim& claim,
                                                   const std::string& source,
                                                   const std::string& target,
                                                   const std::string& body,
                                                   const engram::knowledge::Section& section);

  // Where the tasks and session lines of episode `source` are kept.
  static std::string archive_path(const StoreView& store, const std::string& source);

  // A task or a line about the session is no lasting knowledge: it is kept
  // with its episode in archive/ (never in semantic/ or CORE.md), where
  // git and a person can still find it.
  static void keep_in_archive(StoreView& store, const Claim& claim, const std::string& source);

  void supersede(StoreView& store, const Claim& claim, const std::string& old_text,
                 const std::string& source, const std::string& target);

  static std::string kind_name(ClaimKind kind);

  // The files claims can go to, per layer, read once per run.
  std::map<Layer, LayerFiles> m_layers;
  // Canonical form of each tag seen this run.
  std::map<std::string, std::string> m_canonical;
  // The targets chosen for the episode being decayed, by layer, since a file was last created.
  std::map<Layer, std::string> m_targets;
  // The `## ` titles of the targets claims were filed in this run.
  Headings m_headings;
  // The agent's own files (agent_files.hpp), looked at once per run.
  AgentFiles m_agent_files;
};

} // namespace engram::episodic_decay
