// ClaimIndex: the claims of one layer's files, indexed by the tokens that
// comparison weighs, so "which claims does this one duplicate or update" is
// answered from a few candidates instead of by comparing with every claim
// (the cost that made a consolidation quadratic in the store's claims).
#pragma once

#include "base/text_hash.hpp"
#include "claims/compare.hpp"
#include "claims/sections.hpp"

#include <cstdint>
#include <engram/rule.hpp>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace engram::engine {

// Every distinct claim text seen, prepared for comparison once and numbered.
class ClaimTable {
public:
  // A claim text as comparison sees it, with its tokens numbered: shared by
  // the texts that prepare alike (a claim, and the same claim as an item).
  struct Shape {
    claims::PreparedClaim prepared;     // its normal form and tokens
    std::uint32_t normal = 0;           // the number of its normal form
    std::vector<std::uint32_t> words;   // its significant words, numbered, sorted
    std::vector<std::uint32_t> all;     // its words and values, numbered, each once
    std::vector<std::uint32_t> posted;  // all, the word each name it writes in a code span
                                        // stems to (another claim's word it reads as that name),
                                        // its compounds whole and its links' targets
    std::vector<std::uint32_t> subject; // what it is about, numbered, sorted
    std::vector<std::uint32_t> predicate_words; // its words outside the subject, numbered, sorted
    std::vector<std::uint32_t> passed_over;     // what a choice it states passes over, numbered
  };

  // The number of `text`, preparing it the first time.
  std::uint32_t id(std::string_view text);

  // Numbers every text of `texts` not numbered yet, preparing them on every
  // core first (preparing is most of what numbering costs).
  void add_all(const std::vector<std::string_view>& texts);

  // The text numbered `id`.
  const std::string& text(std::uint32_t id) const { return *m_texts[id]; }

  // How comparison sees the text numbered `id`.
  const Shape& shape(std::uint32_t id) const { return m_shapes[m_shape_of[id]]; }

  // How many texts are numbered.
  std::size_t size() const { return m_texts.size(); }

  // The number of a text's normal form, from a compact table.
  std::uint32_t normal(std::uint32_t id) const { return m_normal[id]; }

  // Classifies claim texts, each distinct text once, for the whole run
  // (splitting a body and answering a query share it).
  claims::KindMemo& kinds() const { return m_kinds; }

private:
  using Numbers = std::unordered_map<std::string, std::uint32_t, TextHash, std::equal_to<>>;

  // The number of a token or normal form in `numbers`.
  static std::uint32_t number(Numbers& numbers, const std::string& text);

  // Numbers `text`, not numbered yet, as `prepared`.
  std::uint32_t add(std::string_view text, claims::PreparedClaim prepared);

  // The number of the first text numbered of those claims::prepared_alike
  // gives for `text`, each shorter than the one before (the claim of an item
  // with its marker, then of the item).
  std::optional<std::uint32_t> alike_numbered(std::string_view text) const;

  // Numbers `text`, not numbered yet, as the text numbered `alike` is.
  std::uint32_t add_alike(std::string_view text, std::uint32_t alike);

  // Numbers `text`, not numbered yet, with the shape numbered `shape`.
  std::uint32_t push(std::string_view text, std::uint32_t shape);

  Numbers m_ids;                           // claim text → its number; the texts themselves
  Numbers m_tokens;                        // token → its number
  Numbers m_normals;                       // normal form → its number
  std::vector<const std::string*> m_texts; // by number: its key in m_ids (nodes stay put)
  std::vector<std::uint32_t> m_shape_of;   // by number: its shape in m_shapes
  std::vector<Shape> m_shapes;
  std::vector<std::uint32_t> m_normal; // by text: Shape::normal
  mutable claims::KindMemo m_kinds;
};

// The claims of the files of one layer, kept up to date file by file.
class ClaimIndex {
public:
  // Indexes the claims of `path`'s current `body` (again, after a change).
  void update(const std::string& path, std::string_view body, ClaimTable& table);

  // update() for many files at once, as a layer's first indexing is: the
  // bodies are split, and their new claim texts prepared, on every core.
  // The bodies must outlive the call only.
  void update_all(const std::vector<std::pair<const std::string*, std::string_view>>& files,
                  ClaimTable& table);

  // Forgets a file that no longer exists.
  void remove(const std::string& path);

  // The claims of an indexed file's current body, as claims::split_claims
  // gives them with `memo`: the index keeps them split section by section,
  // and only `Solution:` claims classified; the others are classified here,
  // or, without a memo, left factual (ClaimDetail::unclassified).
  [[nodiscard]] std::vector<Claim> claims_of(const std::string& path, claims::KindMemo* memo) const;

  // Which claims a query wants.
  enum class Wanted {
    related,    // duplicates and updates
    duplicates, // duplicates only: far fewer candidates where a subject has many values
  };

  // Every claim of the indexed files that the claim numbered `incoming`
  // duplicates or updates (claims::relation is not distinct; with
  // Wanted::duplicates, is duplicate), by path and then by position in the
  // file: what comparing with every claim finds. Kinds are classified with
  // `memo`; without one, every kind is factual but a `Solution:` claim's
  // (ClaimDetail::unclassified).
  [[nodiscard]] std::vector<ClaimMatch> related(std::uint32_t incoming, const ClaimTable& table,
                                                double near_threshold, Wanted wanted,
                                                claims::KindMemo* memo) const;

  // What one query marks as it counts candidates: its own per thread when
  // queries run side by side.
  struct Scratch {
    std::vector<std::uint32_t> seen;  // text → the query that last saw it
    std::vector<std::uint32_t> count; // text → its probed tokens, that query
    std::uint32_t query = 0;          // the current query's stamp
  };

  // related(), marking in `scratch`: safe on several threads at once while
  // nothing changes the index or the table (and without a memo: kinds are
  // left factual but a `Solution:` claim's).
  [[nodiscard]] std::vector<ClaimMatch> related(std::uint32_t incoming, const ClaimTable& table,
                                                double near_threshold, Wanted wanted,
                                                claims::KindMemo* memo, Scratch& scratch) const;

private:
  // One indexed file.
  struct File {
    claims::ClaimSections sections; // its claims, section by section
    std::vector<std::uint32_t> ids; // the number of each claim, in order
    std::vector<char> solutions;    // whether each claim is a `Solution:` section, in order
    bool present = false;           // false once removed
  };
  using Held = std::pair<const std::string, File>; // a file of m_files, by path

  // The texts of the layer that could update one about `in`'s subject: an
  // equal subject, and a predicate dropping at most a complement's words.
  std::vector<std::uint32_t> same_subject(const ClaimTable::Shape& in,
                                          const ClaimTable& table) const;

  // The texts of the layer whose predicate's words are `in`'s, when `in`
  // says its subject holds something one holder at a time may
  // (claims::states_holding): they may say another holds it now.
  std::vector<std::uint32_t> same_holding(const ClaimTable::Shape& in,
                                          const ClaimTable& table) const;

  // The texts of the layer that state what `in`, a choice, passes over and
  // are no choice themselves: it may update them (claims::relation).
  std::vector<std::uint32_t> passed_over_by(const ClaimTable::Shape& in,
                                            const ClaimTable& table) const;

  // The texts one query has seen, each with its count of probed tokens.
  struct Query;

  // The texts holding `token`: none when no indexed text holds it.
  const std::vector<std::uint32_t>& postings_of(std::uint32_t token) const;

  // Marks in `query` the texts that could match `in` going by tokens: those
  // of its normal form, and those holding as many of its tokens as a match
  // must (all texts when a threshold of 0 lets any claim match).
  void count_candidates(const ClaimTable::Shape& in, const ClaimTable& table, double near_threshold,
                        Wanted wanted, Query& query) const;

  // The texts holding the value of `in` that fewest texts hold, when every
  // duplicate of `in` must hold all its values; nullptr when it has none, or
  // when a name it writes in a code span could make another claim's word a value.
  const std::vector<std::uint32_t>* rarest_value(const ClaimTable::Shape& in) const;

  // Marks in `query` the texts holding enough of the rarest of `in`'s tokens,
  // then keeps those that hold `holds_at_least` of them (or `in`'s normal
  // form). When every match must hold one of the texts of `valued` (see
  // rarest_value), those are looked at instead if they are fewer.
  void probe_rarest(const ClaimTable::Shape& in, const ClaimTable& table,
                    std::size_t holds_at_least, const std::vector<std::uint32_t>* valued,
                    Query& query) const;

  // The claims of the indexed files whose texts, of `candidates`, `in`
  // duplicates or updates as `wanted`, by path and then by position.
  std::vector<ClaimMatch> matches_among(const ClaimTable::Shape& in,
                                        const std::vector<std::uint32_t>& candidates,
                                        const ClaimTable& table, double near_threshold,
                                        Wanted wanted, claims::KindMemo* memo) const;

  // Adds a text's tokens to the postings, the first time the layer holds it.
  void post(std::uint32_t id, const ClaimTable& table);

  // Numbers the claims of the sections `change` put into `held`, and puts
  // them in the file's list of claims in place of those it took out.
  void index_sections(Held& held, const claims::SectionChange& change, ClaimTable& table);

  std::map<std::string, File> m_files;                // by path; never erased, so pointers stay
  std::vector<std::vector<std::uint32_t>> m_postings; // token → the texts holding it
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> m_by_normal; // normal → texts
  std::vector<char> m_posted; // text → already in the postings
  std::unordered_map<std::uint32_t, std::vector<const Held*>>
      m_holders;             // text → files (maybe stale)
  mutable Scratch m_scratch; // the one-query-at-a-time related()'s
};

} // namespace engram::engine
