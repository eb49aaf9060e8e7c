// The dedupe rule: memories of one type whose significant words overlap at
// least `similarity` (the share of the smaller set) are duplicates, and the
// older merges into the newer: every claim of the older is absorbed, recorded
// as a duplicate of the text already there, or kept in a superseded marker
// beside the newer claim that updates it; tags and `related` are unioned; the
// older file is removed last. Files that are young, critical, confirmed
// never/do-not rules, or procedural are never merged: they are reported.
// Candidates come from an inverted index with prefix filtering and counting
// (rarest words first), so a store of 10,000 files is not compared pair by pair.
#include "../shared/knowledge.hpp"
#include "engram/plugin.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using engram::Action;
using engram::Layer;
using engram::Relation;
using engram::StoreView;
namespace knowledge = engram::knowledge;

// One memory file as dedupe sees it.
struct Doc {
  std::string path;
  std::vector<std::uint32_t> words; // significant word ids, sorted, unique
  knowledge::Age age;
  std::string guard; // why it is never merged automatically ("" when it may be)
  bool removed = false;
};

// Two duplicate files, as found.
struct Pair {
  std::size_t a = 0;  // index of one doc
  std::size_t b = 0;  // index of the other
  double score = 0.0; // the overlap of their significant words
};

int salience_rank(const std::optional<std::string>& salience) {
  return salience == "high" ? 3 : salience == "low" ? 1 : 2;
}

std::string percent(double share) {
  return std::to_string(static_cast<int>(std::floor(share * 100.0 + 1e-9))) + "%";
}

// Whether a doc takes part in a search: not merged away, and with significant words.
bool live(const Doc& doc) {
  return !doc.removed && !doc.words.empty();
}

// The live docs and the postings of their words, as find_pairs searches them.
struct WordIndex {
  std::vector<std::uint32_t> by_size;            // the live docs, in key order
  std::vector<std::uint32_t> sizes;              // every doc's word count, by doc
  std::vector<std::vector<std::uint32_t>> all;   // by word: the live docs holding it, in key order
  std::vector<std::vector<std::uint32_t>> fresh; // the same, of changed docs only
  std::vector<std::uint32_t> frequency;          // by word: how many live docs hold it

  // A doc's place in the postings: by size, then by index.
  [[nodiscard]] std::uint64_t key(std::size_t i) const {
    return (std::uint64_t{sizes[i]} << 32) | i;
  }
};

// What became of the claims of a file merged into another.
struct Tally {
  std::size_t absorbed = 0;
  std::size_t duplicates = 0;
  std::size_t superseded = 0;
};

// The claim of the newer file an older claim matches: one it duplicates, else
// one of the newer file's own that updates it.
struct Match {
  std::optional<std::size_t> duplicate;
  std::optional<std::size_t> update;
};

class DedupeRule final : public engram::Rule {
public:
  void run(StoreView& store) override {
    m_ids.clear();
    m_word_ids.clear();
    m_similarity = std::clamp(knowledge::real_setting(store, "similarity", 0.6), 0.0, 1.0);
    m_min_age = knowledge::int_setting(store, "min_age_days", 14);
    m_max_bytes =
        static_cast<std::size_t>(knowledge::int_setting(store, "max_merged_bytes", 32768));
    m_too_large.clear();
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

private:
  // Merges the duplicates among `paths` until none is left that may merge,
  // then reports the duplicates that may not.
  void dedupe(StoreView& store, Layer layer, const std::vector<std::string>& paths) {
    if (paths.size() < 2) {
      return;
    }
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
        changed[newer] = true;
      }
    }
  }

  // True when merging the two files would make one over max_merged_bytes:
  // with "of the smaller set" overlap, a file that absorbed many others
  // shares most words with every small file, and would absorb the store.
  // Such a pair is reported once per run and left for a person.
  bool too_large(StoreView& store, const Doc& a, const Doc& b, double score) {
    if (a.removed || b.removed) {
      return false;
    }
    const auto bytes = store.body(a.path).size() + store.body(b.path).size();
    if (bytes <= m_max_bytes) {
      return false;
    }
    const auto key = a.path < b.path ? a.path + '\n' + b.path : b.path + '\n' + a.path;
    if (m_too_large.insert(key).second) {
      store.record(Action{
          "", "flagged", "", a.path, b.path,
          "likely duplicate, " + percent(score) +
              " of significant words shared; not merged: together " + std::to_string(bytes) +
              " bytes, over rules.dedupe.max_merged_bytes (" + std::to_string(m_max_bytes) + ")"});
    }
    return true;
  }

  // Why a file is never merged automatically, or "".
  std::string guard_of(const StoreView& store, Layer layer, const Doc& doc) const {
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

  // The significant words of a body as sorted, unique ids of their canonical
  // forms. Each distinct word is stemmed once a run; after that a word costs
  // one lookup, without a copy.
  std::vector<std::uint32_t> words_of(const StoreView& store, std::string_view body) {
    std::vector<std::uint32_t> ids;
    knowledge::for_each_significant_word(body, [&](std::string_view raw) {
      auto known = m_word_ids.find(raw);
      if (known == m_word_ids.end()) {
        const auto canon = store.canonical_tag(raw);
        std::uint32_t id = k_no_word;
        if (!canon.empty()) {
          id = m_ids.try_emplace(canon, static_cast<std::uint32_t>(m_ids.size())).first->second;
        }
        known = m_word_ids.emplace(std::string(raw), id).first;
      }
      if (known->second != k_no_word) {
        ids.push_back(known->second);
      }
    });
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
  }

  // Every pair of live docs whose overlap reaches the threshold, best first,
  // without comparing every pair: the pairs of `known` between files that did
  // not change, and every pair with a file of `changed`, found anew.
  //
  // Words are ordered rarest first. If S (the smaller set, n words) and T
  // share at least need = ceil(t·n) words, then of S's first L words at least
  // need − (n − L) are in T (this holds for any order of S's words; rarest
  // first makes the postings probed short). So S counts, through the postings
  // of its first L words only, how many each T shares, and only a T whose
  // count reaches that bound is compared whole. L = n − need + 1 (the prefix)
  // is the least that can find every pair; a few words more cost little and
  // turn the bound from 1 into several, which keeps words of everyday
  // frequency from making every file a candidate. Postings are in (size,
  // index) order, so the larger files S is paired with are one binary search
  // away. A file that did not change probes the postings of changed files only.
  std::vector<Pair> find_pairs(const std::vector<Doc>& docs, const std::vector<bool>& changed,
                               const std::vector<Pair>& known) const {
    const WordIndex index = index_words(docs, changed);
    std::vector<Pair> pairs;
    for (const auto& pair : known) {
      if (live(docs[pair.a]) && live(docs[pair.b]) && !changed[pair.a] && !changed[pair.b]) {
        pairs.push_back(pair);
      }
    }
    std::vector<std::uint32_t> shared(docs.size(), 0); // per candidate, this doc's words it holds
    std::vector<std::uint32_t> candidates;
    std::vector<std::uint32_t> order;
    for (const auto i : index.by_size) {
      const auto& doc = docs[i];
      const auto& postings = changed[i] ? index.all : index.fresh;
      order = doc.words;
      std::sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
        return index.frequency[x] != index.frequency[y] ? index.frequency[x] < index.frequency[y]
                                                        : x < y;
      });
      const auto n = order.size();
      const auto need =
          std::min(n, static_cast<std::size_t>(
                          std::max(1.0, std::ceil(m_similarity * static_cast<double>(n) - 1e-9))));
      const std::size_t probed = std::min(n, n - need + 1 + k_extra_probes);
      const std::size_t bound = need - (n - probed);
      for (std::size_t k = 0; k < probed; ++k) {
        const auto& list = postings[order[k]];
        // i is the smaller of the two (ties: the lower index): only files after it.
        auto j =
            std::upper_bound(list.begin(), list.end(), index.key(i),
                             [&](std::uint64_t at, std::uint32_t x) { return at < index.key(x); });
        for (; j != list.end(); ++j) {
          if (shared[*j]++ == 0) {
            candidates.push_back(*j);
          }
        }
      }
      for (const auto j : candidates) {
        if (shared[j] >= bound) {
          const double score = knowledge::overlap(doc.words, docs[j].words);
          if (score + 1e-9 >= m_similarity) {
            pairs.push_back(Pair{i, j, score});
          }
        }
        shared[j] = 0;
      }
      candidates.clear();
    }
    sort_best_first(pairs, docs);
    return pairs;
  }

  // The postings of the live docs' words, for find_pairs.
  WordIndex index_words(const std::vector<Doc>& docs, const std::vector<bool>& changed) const {
    WordIndex index;
    for (std::size_t i = 0; i < docs.size(); ++i) {
      if (live(docs[i])) {
        index.by_size.push_back(static_cast<std::uint32_t>(i));
      }
    }
    // Sizes and word frequencies in arrays of their own: the searches read them at random.
    index.sizes.resize(docs.size());
    for (std::size_t i = 0; i < docs.size(); ++i) {
      index.sizes[i] = static_cast<std::uint32_t>(docs[i].words.size());
    }
    std::sort(index.by_size.begin(), index.by_size.end(),
              [&](std::uint32_t x, std::uint32_t y) { return index.key(x) < index.key(y); });
    index.all.resize(m_ids.size());
    index.fresh.resize(m_ids.size());
    for (const auto j : index.by_size) {
      for (const auto word : docs[j].words) {
        index.all[word].push_back(j);
        if (changed[j]) {
          index.fresh[word].push_back(j);
        }
      }
    }
    index.frequency.resize(index.all.size());
    for (std::size_t word = 0; word < index.all.size(); ++word) {
      index.frequency[word] = static_cast<std::uint32_t>(index.all[word].size());
    }
    return index;
  }

  // Sorts pairs best first: the highest overlap, then by the two files' paths.
  static void sort_best_first(std::vector<Pair>& pairs, const std::vector<Doc>& docs) {
    std::sort(pairs.begin(), pairs.end(), [&](const Pair& x, const Pair& y) {
      if (x.score != y.score) {
        return x.score > y.score;
      }
      return std::tie(docs[x.a].path, docs[x.b].path) < std::tie(docs[y.a].path, docs[y.b].path);
    });
  }

  // Records the duplicates that are not merged, and why: one line for each
  // guarded file, naming the file it overlaps most (pairs come best first), so
  // a cluster of young files does not fill the record with every pair.
  static void report(StoreView& store, const std::vector<Doc>& docs,
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
    for (const auto& [path, flag] : flags) {
      const auto& pair = *flag.best;
      const auto& guarded = docs[pair.a].path == path ? docs[pair.a] : docs[pair.b];
      const auto& other = docs[pair.a].path == path ? docs[pair.b] : docs[pair.a];
      const auto more = flag.others == 0 ? std::string()
                                         : " (and " + std::to_string(flag.others) + " more file" +
                                               (flag.others == 1 ? "" : "s") + ")";
      store.record(Action{"", "flagged", "", guarded.path, other.path,
                          "likely duplicate, " + percent(pair.score) +
                              " of significant words shared" + more +
                              "; not merged: " + guarded.guard});
    }
  }

  // Merges `older` into `newer`. A claim travels with its superseded markers
  // as one unit: absorbed whole; a duplicate, its markers kept beside the
  // claim it duplicates; or updated by a claim of the newer file, kept in a
  // marker of its own text followed by its markers, so histories stay a flat
  // list that never nests. Comments outside any claim are kept at the end.
  // Then tags, related and salience; then the older file is removed.
  void merge(StoreView& store, const Doc& older, const Doc& newer, double score) {
    const auto& from = older.path;
    const auto& into = newer.path;
    const auto old_body = store.body(from);
    const auto claims = store.claims(old_body);
    std::string body = store.body(into);
    std::vector<std::string> carried; // the comments that went with a claim
    const Tally tally = merge_claims(store, from, into, old_body, claims, body, carried);
    keep_loose_comments(store, from, into, old_body, carried, body);
    if (body != store.body(into)) {
      store.set_body(into, body);
    }
    merge_frontmatter(store, from, into);
    if (!store.list(into, "related").empty() &&
        std::find(m_linking.begin(), m_linking.end(), into) == m_linking.end()) {
      m_linking.push_back(into);
    }
    redirect_related(store, from, into);
    mend_index_link(store, from, into);
    store.remove(from);
    store.record(Action{"", "merged", "", from, into,
                        percent(score) + " of significant words shared; " +
                            std::to_string(claims.size()) + " claims accounted for (" +
                            std::to_string(tally.absorbed) + " absorbed, " +
                            std::to_string(tally.duplicates) + " duplicate, " +
                            std::to_string(tally.superseded) + " superseded)"});
  }

  // Merges the claims of the file `from` (whose body is `old_body`) into
  // `body`, the body of `into`, recording what became of each; `carried`
  // gains the comments that went with a claim.
  static Tally merge_claims(StoreView& store, const std::string& from, const std::string& into,
                            const std::string& old_body, const std::vector<engram::Claim>& claims,
                            std::string& body, std::vector<std::string>& carried) {
    // The target's own claims (what an older claim can be updated by), and
    // every claim it holds as it grows, each kept in step with its markers.
    std::vector<std::string> present;
    for (const auto& claim : store.claims(body)) {
      present.push_back(claim.text);
    }
    const std::size_t own_claims = present.size();
    Tally tally;
    for (const auto& claim : claims) {
      const auto unit = knowledge::split_markers(claim.text);
      for (auto& comment : knowledge::comments_of(claim.text)) {
        carried.push_back(std::move(comment));
      }
      const Match match = match_of(store, unit.own, present, own_claims);
      const auto history = unit.markers.empty()
                               ? std::string()
                               : ", with its " + std::to_string(unit.markers.size()) +
                                     " superseded marker" + (unit.markers.size() == 1 ? "" : "s");
      if (match.duplicate) {
        const auto existing =
            knowledge::one_line(knowledge::split_markers(present[*match.duplicate]).own);
        body = knowledge::with_markers_beside(body, present[*match.duplicate], unit.markers);
        store.record(Action{"", "duplicate", unit.own, from, into,
                            "already there as \"" + existing + "\"" +
                                (history.empty() ? "" : "; kept beside it" + history)});
        ++tally.duplicates;
        continue;
      }
      if (match.update) {
        // The newer file's claim stands; the older one is kept beside it.
        const auto standing =
            knowledge::one_line(knowledge::split_markers(present[*match.update]).own);
        std::vector<std::string> markers{knowledge::superseded_marker(store.today(), unit.own)};
        markers.insert(markers.end(), unit.markers.begin(), unit.markers.end());
        body = knowledge::with_markers_beside(body, present[*match.update], markers);
        store.record(Action{"", "superseded", unit.own, from, into,
                            "updated by the newer \"" + standing +
                                "\", kept in a superseded marker" + history});
        ++tally.superseded;
        continue;
      }
      body = placed(body, old_body, claim, unit);
      present.push_back(knowledge::entry_with_markers(unit));
      store.record(
          Action{"", "absorbed", unit.own, from, into, "merged from a duplicate file" + history});
      ++tally.absorbed;
    }
    return tally;
  }

  // The first claim of `present` that `own` duplicates, else the first of its
  // first `own_claims` (the newer file's own) that updates it.
  static Match match_of(const StoreView& store, const std::string& own,
                        const std::vector<std::string>& present, std::size_t own_claims) {
    Match match;
    for (std::size_t i = 0; i < present.size(); ++i) {
      const auto relation = store.compare(own, present[i]);
      if (relation == Relation::duplicate) {
        match.duplicate = i;
        break;
      }
      if (relation == Relation::update && !match.update && i < own_claims) {
        match.update = i;
      }
    }
    return match;
  }

  // Keeps, at the end of `body`, the comments of the older file that belong
  // to no claim (the markers of claims superseded before, a person's notes):
  // history is never dropped. `carried` are those that went with a claim.
  static void keep_loose_comments(StoreView& store, const std::string& from,
                                  const std::string& into, const std::string& old_body,
                                  std::vector<std::string>& carried, std::string& body) {
    std::vector<std::string> loose;
    for (auto& comment : knowledge::comments_of(old_body)) {
      const auto it = std::find(carried.begin(), carried.end(), comment);
      if (it != carried.end()) {
        carried.erase(it);
      } else if (body.find(comment) == std::string::npos &&
                 std::find(loose.begin(), loose.end(), comment) == loose.end()) {
        loose.push_back(std::move(comment));
      }
    }
    if (!loose.empty()) {
      std::string block;
      for (const auto& comment : loose) {
        block += (block.empty() ? "" : "\n") + comment;
      }
      body = knowledge::appended(body, block, true);
      store.record(Action{"", "kept", "", from, into,
                          std::to_string(loose.size()) + " comment" +
                              (loose.size() == 1 ? "" : "s") +
                              " outside any claim kept at the end"});
    }
  }

  // `body` with a claim of the older file and its markers added: under the
  // same `## heading` when the target has it, in a new one when the claim had
  // one, else at the end.
  static std::string placed(const std::string& body, const std::string& old_body,
                            const engram::Claim& claim, const knowledge::MarkedClaim& unit) {
    const auto entry = knowledge::entry_with_markers(unit);
    const bool paragraph = unit.own.find('\n') != std::string::npos;
    if (!claim.context.empty()) {
      const auto sep = claim.context.rfind(" > ");
      const auto title = sep == std::string::npos ? claim.context : claim.context.substr(sep + 3);
      if (const auto section = knowledge::find_section(body, title)) {
        return knowledge::insert_in_section(body, *section, entry);
      }
      if (knowledge::find_section(old_body, title)) {
        return knowledge::appended(body, "## " + title + "\n\n" + entry, true);
      }
    }
    return knowledge::appended(body, entry, paragraph);
  }

  // Tags and `related` unioned (the newer's first), the higher salience kept.
  static void merge_frontmatter(StoreView& store, const std::string& from,
                                const std::string& into) {
    const auto union_of = [&](std::string_view key, bool canonical) {
      auto values = store.list(into, key);
      std::set<std::string> seen;
      for (const auto& value : values) {
        seen.insert(canonical ? store.canonical_tag(value) : value);
      }
      bool grew = false;
      for (const auto& value : store.list(from, key)) {
        if (seen.insert(canonical ? store.canonical_tag(value) : value).second) {
          values.push_back(value);
          grew = true;
        }
      }
      return grew ? std::optional(values) : std::nullopt;
    };
    if (const auto tags = union_of("tags", true)) {
      store.set_list(into, "tags", *tags);
    }
    if (auto related = union_of("related", false)) {
      // Neither file points at itself, nor at the file that is going.
      std::erase_if(*related, [&](const std::string& link) {
        return names(from, link) || names(into, link);
      });
      store.set_list(into, "related", *related);
    }
    const auto old_salience = store.field(from, "salience");
    const auto new_salience = store.field(into, "salience");
    if (old_salience && salience_rank(old_salience) > salience_rank(new_salience)) {
      store.set_field(into, "salience", *old_salience);
    }
  }

  // True when a merge of `path` would change a file an undo holds: the file
  // itself, or one whose `related` links name it (they would be redirected).
  bool held(const StoreView& store, const std::string& path) const {
    if (store.held(path)) {
      return true;
    }
    return std::any_of(m_linking.begin(), m_linking.end(), [&](const std::string& linking) {
      if (!store.held(linking)) {
        return false;
      }
      const auto related = store.list(linking, "related");
      return std::any_of(related.begin(), related.end(),
                         [&](const std::string& link) { return names(path, link); });
    });
  }

  // True when a `related` link names `path`: the path, its file name, or its stem.
  static bool names(const std::string& path, const std::string& link) {
    const auto name = path.substr(path.rfind('/') + 1);
    const auto stem =
        name.size() > 3 && name.ends_with(".md") ? name.substr(0, name.size() - 3) : name;
    return link == path || link == name || link == stem;
  }

  // Links to the removed file from other memories now point at the file it
  // merged into. Only files with links can have one: a merge does not read
  // every file of the store again.
  void redirect_related(StoreView& store, const std::string& from, const std::string& into) {
    for (const auto& path : m_linking) {
      if (path == from || !store.exists(path)) {
        continue;
      }
      auto related = store.list(path, "related");
      bool changed = false;
      for (auto& link : related) {
        if (names(from, link)) {
          const auto name = into.substr(into.rfind('/') + 1);
          link = link == from            ? into
                 : link.ends_with(".md") ? name
                                         : name.substr(0, name.size() - 3);
          changed = true;
        }
      }
      if (changed) {
        std::vector<std::string> unique;
        for (const auto& link : related) {
          if (std::find(unique.begin(), unique.end(), link) == unique.end() && !names(path, link)) {
            unique.push_back(link);
          }
        }
        store.set_list(path, "related", unique);
      }
    }
  }

  // An agent's own index (Claude Code's MEMORY.md) that links the merged
  // file links where its claims went instead: the line is the agent's, only
  // its link is mended. engram's generated index is rebuilt anyway.
  static void mend_index_link(StoreView& store, const std::string& from, const std::string& into) {
    const auto index = store.layer_path(Layer::index);
    if (!store.exists(index) || engram::text::is_generated(store.read(index))) {
      return;
    }
    const std::string link = "](" + from + ")";
    for (auto at = store.body(index).find(link); at != std::string::npos;
         at = store.body(index).find(link, at + 1)) {
      store.replace_in_body(index, at + 2, from.size(), into);
      store.record(
          Action{"", "mended", "", index, into, "its link to " + from + ", merged into " + into});
    }
  }

  // The layers whose files can link to a merged file.
  static constexpr Layer k_linking_layers[] = {Layer::semantic, Layer::reference, Layer::procedural,
                                               Layer::episodic};

  std::vector<std::string> m_linking; // files with `related` links, this run
  // Words probed beyond the prefix, each raising the count a candidate needs by one.
  static constexpr std::size_t k_extra_probes = 4;

  double m_similarity = 0.6;
  std::int64_t m_min_age = 14;
  std::size_t m_max_bytes = 32768;
  std::set<std::string> m_too_large; // pairs reported as too large this run
  // Hashes strings and string views alike, so a lookup needs no copy.
  struct WordHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view word) const {
      return std::hash<std::string_view>{}(word);
    }
  };
  // The id of a word whose canonical form is empty.
  static constexpr std::uint32_t k_no_word = UINT32_MAX;

  std::unordered_map<std::string, std::uint32_t> m_ids; // canonical word → id, this run
  std::unordered_map<std::string, std::uint32_t, WordHash, std::equal_to<>>
      m_word_ids; // raw word → id of its canonical form, this run
};

} // namespace

ENGRAM_RULE_PLUGIN(DedupeRule, "dedupe", engram::Phase::merge,
                   "merges near-duplicate memories of one type into the newer, every claim kept",
                   "0.1.0", false)
