// ClaimIndex. A claim can only duplicate or update claims it shares tokens
// with, and how many it must share follows from the thresholds of
// claims::relation. So each query looks at the texts holding the rarest of
// the tokens that any match must include (prefix filtering), then decides
// each candidate with claims::relation itself: the answer is exactly the
// one comparing with every claim gives.
#include "engine/claim_index.hpp"

#include "base/parallel.hpp"
#include "base/splice.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <limits>

namespace engram::engine {
namespace {

// Fewest tokens an update of an instruction shares (claims::relation).
constexpr std::size_t k_update_tokens = 2;
// Most predicate words an update can drop: a copula's complement replaced (claims::relation).
constexpr std::size_t k_update_dropped_words = 2;
// Below this many tokens a duplicate needs equal token sets (claims::relation).
constexpr std::size_t k_containment_tokens = 3;
// Tokens probed past the least prefix, each raising the count a candidate needs by one.
constexpr std::size_t k_extra_probes = 2;

// The most of `n` tokens that can be missing while `double(n - m) / n`
// stays at or above `threshold`: computed with relation's own arithmetic.
std::size_t most_missing(std::size_t n, double threshold) {
  std::size_t m = 0;
  while (m < n && static_cast<double>(n - (m + 1)) / static_cast<double>(n) >= threshold) {
    ++m;
  }
  return m;
}

// How many elements of sorted `a` sorted `b` lacks, counting no further than `most + 1`.
std::size_t missing_count(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                          std::size_t most) {
  std::size_t missing = 0;
  auto j = b.begin();
  for (auto i = a.begin(); i != a.end() && missing <= most; ++i) {
    while (j != b.end() && *j < *i) {
      ++j;
    }
    missing += (j == b.end() || *j != *i) ? 1 : 0;
  }
  return missing;
}

// How many more of its predicate's words `older` may lack in `in` and still
// be updated by it, when one of the two states a change (a move, a switch,
// a join, a departure) that claims::relation reads as what holds now
// ("moved to Braga last month" against "lives in Porto"): the change's
// verb, and on the older side the words that say when it happened.
std::size_t dropped_by_change(const claims::ClaimTokens& in, const claims::ClaimTokens& older) {
  if (in.moved.empty() == older.moved.empty()) {
    return 0;
  }
  return 1 + (older.moved.empty() ? 0 : older.moved_when.size());
}

} // namespace

void ClaimIndex::post(std::uint32_t id, const ClaimTable& table) {
  if (id >= m_posted.size()) {
    m_posted.resize(std::max<std::size_t>(id + 1, m_posted.size() * 2), 0);
  }
  if (m_posted[id] != 0) {
    return;
  }
  m_posted[id] = 1;
  const auto& shape = table.shape(id);
  for (const auto token : shape.posted) {
    if (token >= m_postings.size()) {
      m_postings.resize(token + 1);
    }
    m_postings[token].push_back(id);
  }
  m_by_normal[shape.normal].push_back(id);
}

void ClaimIndex::update(const std::string& path, std::string_view body, ClaimTable& table) {
  auto& held = *m_files.try_emplace(path).first;
  held.second.present = true;
  const auto change = held.second.sections.update(body, nullptr, claims::Kinds::solutions_only);
  index_sections(held, change, table);
}

void ClaimIndex::update_all(
    const std::vector<std::pair<const std::string*, std::string_view>>& files, ClaimTable& table) {
  std::vector<Held*> held;
  held.reserve(files.size());
  for (const auto& [path, body] : files) {
    held.push_back(&*m_files.try_emplace(*path).first);
    held.back()->second.present = true;
  }
  // Splitting a body touches only its own file's sections.
  std::vector<claims::SectionChange> changes(files.size());
  constexpr std::size_t k_files_per_thread = 32;
  for_each_index(files.size(), k_files_per_thread, [&](std::size_t i) {
    changes[i] =
        held[i]->second.sections.update(files[i].second, nullptr, claims::Kinds::solutions_only);
  });
  std::vector<std::string_view> texts;
  for (std::size_t i = 0; i < held.size(); ++i) {
    const auto& sections = held[i]->second.sections.sections();
    for (std::size_t k = changes[i].first; k < changes[i].first + changes[i].added; ++k) {
      for (const auto& claim : sections[k].content->claims) {
        texts.emplace_back(claim.text);
      }
    }
  }
  table.add_all(texts);
  for (std::size_t i = 0; i < held.size(); ++i) {
    index_sections(*held[i], changes[i], table);
  }
}

void ClaimIndex::index_sections(Held& held, const claims::SectionChange& change,
                                ClaimTable& table) {
  auto& file = held.second;
  const auto* key = &held;
  const auto& sections = file.sections.sections();
  std::vector<std::uint32_t> ids;
  std::vector<char> solutions;
  ids.reserve(change.claims_added);
  solutions.reserve(change.claims_added);
  for (std::size_t k = change.first; k < change.first + change.added; ++k) {
    const auto& content = *sections[k].content;
    if (content.ids.size() != content.claims.size()) {
      // A section split again: number its claims and index them for this
      // file. Sections kept from before are indexed already.
      content.ids.clear();
      for (const auto& claim : content.claims) {
        const auto id = table.id(claim.text);
        content.ids.push_back(id);
        post(id, table);
        auto& holders = m_holders[id];
        if (std::find(holders.begin(), holders.end(), key) == holders.end()) {
          holders.push_back(key);
        }
      }
    }
    ids.insert(ids.end(), content.ids.begin(), content.ids.end());
    for (const auto& claim : content.claims) {
      solutions.push_back(claim.kind == ClaimKind::solution ? 1 : 0);
    }
  }
  splice(file.ids, change.claims_first, change.claims_removed, ids);
  splice(file.solutions, change.claims_first, change.claims_removed, solutions);
}

std::vector<Claim> ClaimIndex::claims_of(const std::string& path, claims::KindMemo* memo) const {
  const auto it = m_files.find(path);
  if (it == m_files.end() || !it->second.present) {
    return {};
  }
  auto out = it->second.sections.claims();
  if (memo != nullptr) {
    for (auto& claim : out) {
      if (claim.kind != ClaimKind::solution) {
        claim.kind = memo->classify(claim.text);
      }
    }
  }
  return out;
}

void ClaimIndex::remove(const std::string& path) {
  const auto it = m_files.find(path);
  if (it != m_files.end()) {
    it->second.present = false;
    it->second.ids.clear();
    it->second.solutions.clear();
    it->second.sections = {};
  }
}

std::vector<ClaimMatch> ClaimIndex::related(std::uint32_t incoming, const ClaimTable& table,
                                            double near_threshold, Wanted wanted,
                                            claims::KindMemo* memo) const {
  return related(incoming, table, near_threshold, wanted, memo, m_scratch);
}

std::vector<std::uint32_t> ClaimIndex::passed_over_by(const ClaimTable::Shape& in,
                                                      const ClaimTable& table) const {
  std::vector<std::uint32_t> out;
  for (const auto token : in.passed_over) {
    for (const auto id : postings_of(token)) {
      if (table.shape(id).prepared.tokens.passed_over.empty()) {
        out.push_back(id);
      }
    }
  }
  return out;
}

std::vector<std::uint32_t> ClaimIndex::same_holding(const ClaimTable::Shape& in,
                                                    const ClaimTable& table) const {
  std::vector<std::uint32_t> out;
  if (!claims::states_holding(in.prepared.tokens) || in.predicate_words.empty()) {
    return out;
  }
  const std::vector<std::uint32_t>* rarest = nullptr;
  for (const auto token : in.predicate_words) {
    const auto& postings = postings_of(token);
    if (rarest == nullptr || postings.size() < rarest->size()) {
      rarest = &postings;
    }
  }
  for (const auto id : *rarest) {
    if (table.shape(id).predicate_words == in.predicate_words) {
      out.push_back(id);
    }
  }
  return out;
}

std::vector<std::uint32_t> ClaimIndex::same_subject(const ClaimTable::Shape& in,
                                                    const ClaimTable& table) const {
  const std::vector<std::uint32_t>* rarest = nullptr;
  for (const auto token : in.subject) {
    if (token >= m_postings.size()) {
      return {}; // no indexed text holds it
    }
    if (rarest == nullptr || m_postings[token].size() < rarest->size()) {
      rarest = &m_postings[token];
    }
  }
  std::vector<std::uint32_t> out;
  if (rarest == nullptr) {
    return out;
  }
  // Only a copula's complement can drop two words; any other update drops
  // at most one (claims::relation).
  const bool copular = in.prepared.tokens.copular;
  for (const auto id : *rarest) {
    const auto& shape = table.shape(id);
    // A claim that writes the subject with fewer words and the rest in its
    // predicate (an instruction's object holding all of it) is compared as
    // a claim about it, those words out of its predicate (claims::relation).
    const auto in_object = [&](std::uint32_t t) {
      return std::find(shape.all.begin(), shape.all.end(), t) != shape.all.end();
    };
    const bool about = shape.subject.size() < in.subject.size() &&
                       std::includes(in.subject.begin(), in.subject.end(), shape.subject.begin(),
                                     shape.subject.end()) &&
                       std::all_of(in.subject.begin(), in.subject.end(), in_object);
    if (shape.subject != in.subject && !about) {
      continue;
    }
    const auto object_words = static_cast<std::size_t>(
        !about ? 0 : std::count_if(in.subject.begin(), in.subject.end(), [&](std::uint32_t t) {
          return std::binary_search(shape.predicate_words.begin(), shape.predicate_words.end(), t);
        }));
    const auto changed = dropped_by_change(in.prepared.tokens, shape.prepared.tokens);
    // A copula's complement may drop a name of several words as one (claims::relation).
    const auto naming =
        copular && shape.prepared.tokens.copular ? shape.prepared.tokens.names.size() : 0;
    const auto limit = k_update_dropped_words + changed + naming;
    const auto dropped =
        missing_count(shape.predicate_words, in.predicate_words, limit + object_words) -
        object_words;
    // A change read as a state takes the copula of the claim that states it.
    const bool copulas = changed > 0 || (copular && shape.prepared.tokens.copular);
    if (dropped < limit || (dropped == limit && copulas)) {
      out.push_back(id);
    }
  }
  return out;
}

// The texts one query has seen, marked in its scratch, in the order it saw them.
struct ClaimIndex::Query {
  std::vector<std::uint32_t>& seen;      // text → the query that last saw it
  std::vector<std::uint32_t>& count;     // text → its probed tokens, this query
  std::uint32_t stamp = 0;               // this query's
  std::vector<std::uint32_t> candidates; // the texts seen

  // Marks a text seen by this query, with its count of probed tokens reset.
  bool see(std::uint32_t id) {
    if (seen[id] == stamp) {
      return false;
    }
    seen[id] = stamp;
    count[id] = 0;
    candidates.push_back(id);
    return true;
  }
};

const std::vector<std::uint32_t>& ClaimIndex::postings_of(std::uint32_t token) const {
  static const std::vector<std::uint32_t> k_none;
  return token < m_postings.size() ? m_postings[token] : k_none;
}

void ClaimIndex::count_candidates(const ClaimTable::Shape& in, const ClaimTable& table,
                                  double near_threshold, Wanted wanted, Query& query) const {
  // Equal normal forms are duplicates whatever their tokens.
  if (const auto it = m_by_normal.find(in.normal); it != m_by_normal.end()) {
    for (const auto id : it->second) {
      query.see(id);
    }
  }
  // How many of the incoming tokens a match holds, at least. A duplicate by
  // containment misses at most `most_missing` of them (with fewer than three,
  // none). An update of a claim about something (a subject) holds that whole
  // subject, and is looked for by the caller; an update of an instruction (no
  // subject) shares at least two words and half the incoming tokens.
  constexpr auto k_never = std::numeric_limits<std::size_t>::max();
  const auto n = in.all.size();
  bool everything = false;
  std::size_t holds_at_least = k_never;
  if (n > 0) {
    const auto missing = n < k_containment_tokens ? 0 : most_missing(n, near_threshold);
    everything = missing + 1 > n; // a threshold of 0: any claim could be one
    // Words comparison reads as another claim's may be missing as well.
    const auto alike = claims::tokens_read_alike(in.prepared.tokens);
    holds_at_least = std::max<std::size_t>(1, n - std::min(n, missing + alike));
    if (wanted == Wanted::related && in.subject.empty()) {
      // Shared as comparison counts them, after reading words alike.
      const auto shared = std::max<std::size_t>(k_update_tokens, (n + 1) / 2);
      holds_at_least =
          std::min(holds_at_least, std::max<std::size_t>(1, shared - std::min(shared, alike)));
    }
  }
  if (everything) {
    for (std::uint32_t id = 0; id < m_posted.size(); ++id) {
      if (m_posted[id] != 0) {
        query.see(id);
      }
    }
  } else if (holds_at_least != k_never) {
    // Counting finds duplicates only, once a claim has a subject: its
    // updates share that subject (same_subject) or what it passes over.
    const bool duplicates_only = wanted == Wanted::duplicates || !in.subject.empty();
    probe_rarest(in, table, holds_at_least, duplicates_only ? rarest_value(in) : nullptr, query);
  }
}

const std::vector<std::uint32_t>* ClaimIndex::rarest_value(const ClaimTable::Shape& in) const {
  // A duplicate holds every value of the incoming claim (claims::relation's
  // containment drops values, never adds them), so only the texts holding
  // its rarest value can be one. A name written in a code span can make a
  // bare word of the other claim a value, so such a claim is probed by
  // counts instead. Without this, notes that share a template and differ in
  // an id each made every other one a candidate: quadratic in their number.
  // A change's words that say when ("moved to Braga in March") are not
  // read against a claim of the state it left, so they too may be missing.
  if (!in.prepared.tokens.quoted_words.empty() || !in.prepared.tokens.moved_when.empty()) {
    return nullptr;
  }
  const std::vector<std::uint32_t>* rarest = nullptr;
  for (const auto token : in.all) {
    if (std::binary_search(in.words.begin(), in.words.end(), token)) {
      continue; // a word (or a value also written as one of its words)
    }
    const auto& postings = postings_of(token);
    if (rarest == nullptr || postings.size() < rarest->size()) {
      rarest = &postings;
    }
  }
  return rarest;
}

void ClaimIndex::probe_rarest(const ClaimTable::Shape& in, const ClaimTable& table,
                              std::size_t holds_at_least, const std::vector<std::uint32_t>* valued,
                              Query& query) const {
  // Prefix filtering with counts: a match holds `holds_at_least` of the n
  // tokens, so of the `probed` rarest it holds at least `bound`; counting
  // through those postings finds every match, and only a text whose count
  // reaches the bound is compared token by token. Probing a few tokens
  // past the least (n - holds_at_least + 1) raises the bound above one, so
  // a common word does not make every text holding it a candidate.
  const auto n = in.all.size();
  std::vector<std::uint32_t> order = in.all;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto x = postings_of(a).size();
    const auto y = postings_of(b).size();
    return x != y ? x < y : a < b;
  });
  const auto probed = std::min(n, n - holds_at_least + 1 + k_extra_probes);
  const auto bound = static_cast<std::uint32_t>(holds_at_least - (n - probed));
  std::size_t walk = 0;
  for (std::size_t k = 0; valued != nullptr && k < probed; ++k) {
    walk += postings_of(order[k]).size();
  }
  if (valued != nullptr && valued->size() <= walk) {
    // Fewer texts hold the value every match holds than the counting would walk.
    for (const auto id : *valued) {
      if (text::shared_count(in.all, table.shape(id).posted) >= holds_at_least) {
        query.see(id);
      }
    }
    return;
  }
  auto& count = query.count;
  for (std::size_t k = 0; k < probed; ++k) {
    for (const auto id : postings_of(order[k])) {
      query.see(id);
      ++count[id];
    }
  }
  std::erase_if(query.candidates, [&](std::uint32_t id) {
    return table.normal(id) != in.normal &&
           (count[id] < bound ||
            text::shared_count(in.all, table.shape(id).posted) < holds_at_least);
  });
}

std::vector<ClaimMatch> ClaimIndex::matches_among(const ClaimTable::Shape& in,
                                                  const std::vector<std::uint32_t>& candidates,
                                                  const ClaimTable& table, double near_threshold,
                                                  Wanted wanted, claims::KindMemo* memo) const {
  std::vector<ClaimMatch> out;
  for (const auto id : candidates) {
    const auto relation = claims::relation(in.prepared, table.shape(id).prepared, near_threshold);
    if (relation == Relation::distinct ||
        (wanted == Wanted::duplicates && relation != Relation::duplicate)) {
      continue;
    }
    const auto holders = m_holders.find(id);
    if (holders == m_holders.end()) {
      continue;
    }
    for (const auto* held : holders->second) {
      const auto& file = held->second;
      for (std::size_t i = 0; i < file.ids.size(); ++i) {
        if (file.ids[i] == id) {
          // Classified when a query that wants kinds first returns it:
          // indexing a layer classifies nothing.
          const auto kind = file.solutions[i] != 0 ? ClaimKind::solution
                            : memo != nullptr      ? memo->classify(table.text(id))
                                                   : ClaimKind::factual;
          out.push_back(ClaimMatch{held->first, i, table.text(id), kind, relation});
        }
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const ClaimMatch& a, const ClaimMatch& b) {
    return std::tie(a.path, a.index) < std::tie(b.path, b.index);
  });
  return out;
}

std::vector<ClaimMatch> ClaimIndex::related(std::uint32_t incoming, const ClaimTable& table,
                                            double near_threshold, Wanted wanted,
                                            claims::KindMemo* memo, Scratch& scratch) const {
  near_threshold = std::clamp(near_threshold, 0.0, 1.0);
  const auto& in = table.shape(incoming);
  if (scratch.seen.size() < table.size()) {
    scratch.seen.resize(table.size(), 0);
    scratch.count.resize(table.size(), 0);
  }
  Query query{scratch.seen, scratch.count, ++scratch.query, {}};
  count_candidates(in, table, near_threshold, wanted, query);

  auto& candidates = query.candidates;
  if (wanted == Wanted::related) {
    // Kept whatever the counts above said: an update need not share many tokens.
    std::sort(candidates.begin(), candidates.end());
    auto more = in.subject.empty() ? std::vector<std::uint32_t>{} : same_subject(in, table);
    const auto over = passed_over_by(in, table);
    more.insert(more.end(), over.begin(), over.end());
    const auto held = same_holding(in, table);
    more.insert(more.end(), held.begin(), held.end());
    std::sort(more.begin(), more.end());
    more.erase(std::unique(more.begin(), more.end()), more.end());
    const auto counted = candidates.size();
    for (const auto id : more) {
      if (!std::binary_search(candidates.begin(), candidates.begin() + counted, id)) {
        candidates.push_back(id);
      }
    }
  }
  return matches_among(in, candidates, table, near_threshold, wanted, memo);
}

} // namespace engram::engine
