// The dedupe rule's class and the records its pieces pass each other:
// dedupe.cpp reads the files of each type and merges or reports their
// duplicates, pairs.cpp finds the duplicate pairs through an inverted index
// of significant words, merge.cpp merges the older file of a pair into the
// newer, every claim kept.
#pragma once

#include "../shared/knowledge.hpp"
#include "engram/rule.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace engram::dedupe {

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

class DedupeRule final : public Rule {
public:
  void run(StoreView& store) override;

private:
  // A share as a whole percentage, rounded down ("60%").
  static std::string percent(double share);

  // Finding and reporting duplicates (dedupe.cpp).

  // Merges the duplicates among `paths` until none is left that may merge,
  // then reports the duplicates that may not.
  void dedupe(StoreView& store, Layer layer, const std::vector<std::string>& paths);

  // True when merging the two files would make one over max_merged_bytes:
  // with "of the smaller set" overlap, a file that absorbed many others
  // shares most words with every small file, and would absorb the store.
  // Such a pair is reported once per run and left for a person.
  bool too_large(StoreView& store, const Doc& a, const Doc& b, double score);

  // Why a file is never merged automatically, or "".
  std::string guard_of(const StoreView& store, Layer layer, const Doc& doc) const;

  // Records the duplicates that are not merged, and why: one line for each
  // guarded file, naming the file it overlaps most (pairs come best first), so
  // a cluster of young files does not fill the record with every pair.
  static void report(StoreView& store, const std::vector<Doc>& docs,
                     const std::vector<Pair>& pairs);

  // Finding duplicate pairs (pairs.cpp).

  // The significant words of a body as sorted, unique ids of their canonical
  // forms. Each distinct word is stemmed once a run; after that a word costs
  // one lookup, without a copy.
  std::vector<std::uint32_t> words_of(const StoreView& store, std::string_view body);

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
                               const std::vector<Pair>& known) const;

  // True when the two files hold some of the same knowledge, not only the
  // same words: at least `m_shared_claims` of the claims of the one with
  // fewer claims (and at least one) are in the other, equal, near-equal or
  // an older or newer value of one of its claims. Notes written from
  // templates share most words whatever they are about, and merging two
  // such files would fuse different topics into one. A file without claims
  // (one whose claims were all superseded, say) is no one's duplicate.
  bool shares_claims(const StoreView& store, Layer layer, const Doc& a, const Doc& b);
  // The claims of a file as shares_claims compares them, without their
  // superseded markers, each noted when that is how the layer's claim index
  // holds it (it has no markers to leave out).
  struct OwnClaims {
    std::vector<std::string> texts;
    std::vector<bool> as_indexed;
  };
  // A file's OwnClaims; read once a run, and again after a merge grew it.
  const OwnClaims& own_claims(const StoreView& store, const std::string& path);
  // True when `claim` is a claim of `more` (the file at `path`), equal,
  // near-equal, or an older or newer value of it: compare(claim, own) is a
  // duplicate or an update for one of them. With `ask_index`, what the
  // layer's claim index can answer is taken from it instead of compared.
  bool held_in(const StoreView& store, Layer layer, const std::string& claim,
               const std::string& path, const OwnClaims& more, bool ask_index);
  // related_claims(claim, layer), asked once until a merge changes the layer.
  const std::vector<ClaimMatch>& related_of(const StoreView& store, Layer layer,
                                            const std::string& claim);
  // The postings of the live docs' words, for find_pairs.
  WordIndex index_words(const std::vector<Doc>& docs, const std::vector<bool>& changed) const;

  // Sorts pairs best first: the highest overlap, then by the two files' paths.
  static void sort_best_first(std::vector<Pair>& pairs, const std::vector<Doc>& docs);

  // Merging a pair (merge.cpp).

  // Merges `older` into `newer`. A claim travels with its superseded markers
  // as one unit: absorbed whole; a duplicate, its markers kept beside the
  // claim it duplicates; or updated by a claim of the newer file, kept in a
  // marker of its own text followed by its markers, so histories stay a flat
  // list that never nests. Comments outside any claim are kept at the end.
  // Then tags, related and salience; then the older file is removed.
  void merge(StoreView& store, const Doc& older, const Doc& newer, double score);

  // Merges the claims of the file `from` (whose body is `old_body`) into
  // `body`, the body of `into`, recording what became of each; `carried`
  // gains the comments that went with a claim.
  static Tally merge_claims(StoreView& store, const std::string& from, const std::string& into,
                            const std::string& old_body, const std::vector<engram::Claim>& claims,
                            std::string& body, std::vector<std::string>& carried);

  // The first claim of `present` that `own` duplicates, else the first of its
  // first `own_claims` (the newer file's own) that updates it.
  static Match match_of(const StoreView& store, const std::string& own,
                        const std::vector<std::string>& present, std::size_t own_claims);

  // Keeps, at the end of `body`, the comments of the older file that belong
  // to no claim (the markers of claims superseded before, a person's notes):
  // history is never dropped. `carried` are those that went with a claim.
  static void keep_loose_comments(StoreView& store, const std::string& from,
                                  const std::string& into, const std::string& old_body,
                                  std::vector<std::string>& carried, std::string& body);

  // `body` with a claim of the older file and its markers added: under the
  // same `## heading` when the target has it, in a new one when the claim had
  // one, else at the end.
  static std::string placed(const std::string& body, const std::string& old_body,
                            const engram::Claim& claim, const knowledge::MarkedClaim& unit);

  // Tags and `related` unioned (the newer's first), the higher salience kept.
  static void merge_frontmatter(StoreView& store, const std::string& from, const std::string& into);

  // True when a merge of `path` would change a file an undo holds: the file
  // itself, or one whose `related` links name it (they would be redirected).
  bool held(const StoreView& store, const std::string& path) const;

  // True when a `related` link names `path`: the path, its file name, or its stem.
  static bool names(const std::string& path, const std::string& link);

  // Links to the removed file from other memories now point at the file it
  // merged into. Only files with links can have one: a merge does not read
  // every file of the store again.
  void redirect_related(StoreView& store, const std::string& from, const std::string& into);

  // An agent's own index (Claude Code's MEMORY.md) that links the merged
  // file links where its claims went instead: the line is the agent's, only
  // its link is mended. engram's generated index is rebuilt anyway.
  static void mend_index_link(StoreView& store, const std::string& from, const std::string& into);

  // The layers whose files can link to a merged file.
  static constexpr Layer k_linking_layers[] = {Layer::semantic, Layer::reference, Layer::procedural,
                                               Layer::episodic};

  std::vector<std::string> m_linking; // files with `related` links, this run
  // Pairs of claims shares_claims compares one by one; past it, it asks the claim index.
  static constexpr std::size_t k_compared_most = 100;
  // Words probed beyond the prefix, each raising the count a candidate needs by one.
  static constexpr std::size_t k_extra_probes = 4;

  double m_similarity = 0.6;
  double m_shared_claims = 0.25;
  std::unordered_map<std::string, OwnClaims> m_claims;                // see own_claims
  std::unordered_map<std::string, std::vector<ClaimMatch>> m_related; // see related_of
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

} // namespace engram::dedupe
