// The contradictions rule: two claims of one layer on the same subject where
// one flips the other's polarity (do/don't, always/never, use/avoid) or
// replaces its value (a number, version, date, true/false) contradict each
// other. The newer claim stands — the newer file's (`created`, then mtime), or
// within one file the later one — and the older is kept in a
// `<!-- superseded DATE: previously "…" -->` marker beside it. A file becomes
// `status: superseded` only when every one of its claims is. Claims of
// unrelated files (no shared tag, little shared vocabulary) are never paired,
// and critical or confirmed never/do-not memories are reported, not changed.
#include "../shared/knowledge.hpp"
#include "engram/plugin.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

using engram::Action;
using engram::Layer;
using engram::Relation;
using engram::StoreView;
namespace knowledge = engram::knowledge;

// Files sharing at least this share of significant words are on related subjects.
constexpr double k_related_overlap = 0.4;

// One claim, where it is.
struct Place {
  std::string path;
  std::size_t index = 0;
  std::string text;
  bool operator<(const Place& other) const {
    return std::tie(path, index) < std::tie(other.path, other.index);
  }
};

// What the rule knows of one file.
struct FileFacts {
  std::vector<std::string> tags;  // canonical, sorted, unique
  std::vector<std::string> words; // significant, sorted, unique
  knowledge::Age age;
  std::string guard; // why its claims are never superseded automatically
};

// What the rule makes of the contradictions in one layer.
struct Findings {
  std::map<Place, Place> superseded_by;        // each older claim's newest update
  std::set<std::pair<Place, Place>> flagged;   // older, newer: the older is protected
  std::set<std::pair<Place, Place>> uncertain; // both kept; a person judges
};

class ContradictionsRule final : public engram::Rule {
public:
  void run(StoreView& store) override {
    for (const Layer layer : {Layer::semantic, Layer::procedural, Layer::reference}) {
      resolve(store, layer);
    }
  }

private:
  // Supersedes, within `layer`, each claim a newer claim contradicts, and
  // records the pairs it leaves as they are.
  void resolve(StoreView& store, Layer layer) {
    // A file an undo holds neither supersedes nor is superseded (its
    // claims are not in related_claims' answers either).
    auto paths = store.files(layer);
    std::erase_if(paths, [&](const std::string& path) { return store.held(path); });
    std::map<std::string, FileFacts> facts;
    std::map<std::string, std::vector<std::string>> claims; // path → its claims' texts
    for (const auto& path : paths) {
      for (const auto& claim : store.claims_of(path, engram::ClaimDetail::unclassified)) {
        claims[path].push_back(claim.text);
      }
    }
    // Every claim's relatives, asked at once (nothing changes until all are known).
    std::vector<std::string> asked;
    for (const auto& path : paths) {
      const auto& texts = claims[path];
      asked.insert(asked.end(), texts.begin(), texts.end());
    }
    const auto relatives =
        store.related_claims_each(asked, layer, engram::ClaimDetail::unclassified);
    Findings findings;
    std::size_t next = 0; // the next claim's place in `relatives`
    for (const auto& path : paths) {
      const auto& texts = claims[path];
      for (std::size_t i = 0; i < texts.size(); ++i) {
        const Place here{path, i, texts[i]};
        for (const auto& match : relatives[next++]) {
          judge(store, facts, here, match, findings);
        }
      }
    }
    record_kept(store, facts, findings);
    supersede_all(store, findings.superseded_by);
  }

  // Notes what the claim `here` and `match`, a claim related to it, make: the
  // older superseded by the newer, flagged when protected, or left to a person.
  static void judge(const StoreView& store, std::map<std::string, FileFacts>& facts,
                    const Place& here, const engram::ClaimMatch& match, Findings& findings) {
    if (match.relation == Relation::distinct || match.relation == Relation::duplicate ||
        (match.path == here.path && match.index == here.index)) {
      return;
    }
    const Place there{match.path, match.index, match.text};
    if (match.path != here.path && !related(store, facts, here.path, match.path)) {
      return; // the same words on unrelated subjects are not a contradiction
    }
    if (match.relation == Relation::uncertain) {
      findings.uncertain.emplace(std::min(here, there), std::max(here, there));
      return;
    }
    const bool here_newer = is_newer(store, facts, here, there);
    const Place& older = here_newer ? there : here;
    const Place& newer = here_newer ? here : there;
    // The newer claim must update the older, read that way round: "sockets
    // after worker 58" does not update "sockets after table 5", though the
    // older, read as the newer, would look like it qualified the other.
    if (!here_newer && store.compare(newer.text, older.text) != Relation::update) {
      return;
    }
    if (!facts_of(store, facts, older.path).guard.empty()) {
      findings.flagged.emplace(older, newer);
      return;
    }
    const auto [it, fresh] = findings.superseded_by.try_emplace(older, newer);
    if (!fresh && is_newer(store, facts, newer, it->second)) {
      it->second = newer;
    }
  }

  // Records the contradictions left as they are: the protected claims, and
  // the pairs a person judges.
  static void record_kept(StoreView& store, const std::map<std::string, FileFacts>& facts,
                          const Findings& findings) {
    for (const auto& [older, newer] : findings.flagged) {
      store.record(Action{"", "flagged", older.text, older.path, newer.path,
                          "contradicted by the newer \"" +
                              knowledge::one_line(knowledge::split_markers(newer.text).own) +
                              "\"; not changed: " + facts.at(older.path).guard});
    }
    for (const auto& [a, b] : findings.uncertain) {
      store.record(Action{"", "uncertain", a.text, a.path, b.path,
                          "may contradict \"" +
                              knowledge::one_line(knowledge::split_markers(b.text).own) +
                              "\": both kept, for a person to judge which holds"});
    }
  }

  // Supersedes each older claim by its newest update, then marks superseded
  // the files none of whose claims is left.
  static void supersede_all(StoreView& store, const std::map<Place, Place>& superseded_by) {
    std::set<std::string> edited;
    for (const auto& [older, newer] : superseded_by) {
      if (supersede(store, older, newer)) {
        edited.insert(older.path);
      }
    }
    for (const auto& path : edited) {
      if (store.claims_of(path, engram::ClaimDetail::unclassified).empty() &&
          knowledge::lower(store.field(path, "status").value_or("")) != "superseded") {
        store.set_field(path, "status", "superseded");
        store.record(
            Action{"", "marked", "", path, "", "every claim is superseded: status superseded"});
      }
    }
  }

  // The facts of a file, read once per run.
  static const FileFacts& facts_of(const StoreView& store, std::map<std::string, FileFacts>& facts,
                                   const std::string& path) {
    auto [it, fresh] = facts.try_emplace(path);
    if (fresh) {
      auto& f = it->second;
      for (const auto& tag : store.list(path, "tags")) {
        if (auto canon = store.canonical_tag(tag); !canon.empty()) {
          f.tags.push_back(std::move(canon));
        }
      }
      std::sort(f.tags.begin(), f.tags.end());
      f.tags.erase(std::unique(f.tags.begin(), f.tags.end()), f.tags.end());
      f.words = knowledge::raw_significant_words(store.body(path));
      std::sort(f.words.begin(), f.words.end());
      f.words.erase(std::unique(f.words.begin(), f.words.end()), f.words.end());
      f.age = knowledge::Age::of(store, path);
      f.guard = knowledge::protected_reason(store, path);
    }
    return it->second;
  }

  // True when two files are on related subjects: a shared tag, or shared vocabulary.
  static bool related(const StoreView& store, std::map<std::string, FileFacts>& facts,
                      const std::string& a, const std::string& b) {
    const auto& fa = facts_of(store, facts, a);
    const auto& fb = facts_of(store, facts, b);
    for (const auto& tag : fa.tags) {
      if (std::binary_search(fb.tags.begin(), fb.tags.end(), tag)) {
        return true;
      }
    }
    return knowledge::overlap(fa.words, fb.words) >= k_related_overlap;
  }

  // True when claim `a` is newer than claim `b`: the newer file, or later in the same file.
  static bool is_newer(const StoreView& store, std::map<std::string, FileFacts>& facts,
                       const Place& a, const Place& b) {
    if (a.path == b.path) {
      return a.index > b.index;
    }
    return knowledge::newer(facts_of(store, facts, a.path).age, facts_of(store, facts, b.path).age);
  }

  // Keeps the older claim in a marker beside the newer one; false when its text
  // is no longer where it was (an earlier edit of this run changed it).
  static bool supersede(StoreView& store, const Place& older, const Place& newer) {
    std::string body = store.body(older.path);
    // A claim superseded before carries its markers: the new marker quotes
    // only the claim's own text, and the old ones follow it, so a history of
    // updates stays a flat list instead of nesting.
    const auto unit = knowledge::split_markers(older.text);
    std::vector<std::string> markers{knowledge::superseded_marker(store.today(), unit.own)};
    markers.insert(markers.end(), unit.markers.begin(), unit.markers.end());
    std::string marker;
    for (const auto& line : markers) {
      marker += (marker.empty() ? "" : "\n") + line;
    }
    const auto& own = unit.own;
    const auto at = knowledge::find_claim(body, older.text);
    if (at == std::string::npos) {
      return false;
    }
    std::size_t end = at + older.text.size();
    const bool item = knowledge::is_item(older.text);
    const bool line_start = at == 0 || body[at - 1] == '\n';
    if ((item || line_start) && end < body.size() && body[end] == '\n') {
      ++end; // the item's line, or a sentence that is a line of its own, goes whole: its
             // paragraph stays one
    } else if (!item && end < body.size() && body[end] == ' ') {
      ++end; // a sentence takes its following space with it
    }
    body.erase(at, end - at);
    if (older.path == newer.path) {
      std::string beside = newer.text;
      body = knowledge::with_markers_beside(body, beside, markers);
    } else if (item) {
      body.insert(at, marker + "\n");
    } else {
      // A sentence's marker follows its paragraph, as a block of its own.
      const auto blank = body.find("\n\n", at);
      body = blank == std::string::npos
                 ? knowledge::appended(body, marker, true)
                 : body.substr(0, blank + 1) + "\n" + marker + "\n" + body.substr(blank + 1);
    }
    store.set_body(older.path, body);
    store.record(Action{"", "superseded", own, older.path, newer.path,
                        "contradicted by the newer \"" +
                            knowledge::one_line(knowledge::split_markers(newer.text).own) + "\"" +
                            (older.path == newer.path ? " later in the file" : "") +
                            "; kept in a superseded marker"});
    return true;
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(ContradictionsRule, "contradictions", engram::Phase::resolve,
                   "keeps the newer of two contradicting claims, the older in a superseded marker",
                   "0.1.0", false)
