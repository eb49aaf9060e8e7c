// Claims that say one thing in other words: a place said to be where a
// thing is in several ways, a name written in a code span or bare, and a
// value said to have changed instead of stated anew.
#include "claims/alike.hpp"

#include "claims/compare.hpp"
#include "claims/relocation.hpp"
#include "claims/token_words.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <string_view>
#include <unordered_set>

namespace engram::claims {
namespace detail {
namespace {

// Words that say only where a thing is found, beside the value that says
// where: "runs on port 8123", "is reachable on port 8123", "listens on 8123";
// "its address is 10.0.0.5" and "is at 10.0.0.5". As written; compared stemmed.
constexpr std::array<std::string_view, 22> k_where_words = {
    "run",       "runs",   "running", "listen",    "listens",   "listening",  "serve",   "serves",
    "served",    "hosted", "sits",    "reachable", "available", "accessible", "located", "address",
    "addresses", "ip",     "url",     "lives",     "found",     "reached",
};

// Words that say a value changed, said of the thing instead of its value
// ("Deploys were moved to Fridays", "Staging was upgraded to Postgres 16").
// As written; compared stemmed.
constexpr std::array<std::string_view, 29> k_change_words = {
    "moved",   "changed", "switched",  "upgraded", "downgraded", "bumped",
    "raised",  "lowered", "increased", "reduced",  "decreased",  "rescheduled",
    "shifted", "updated", "migrated",  "pushed",   "postponed",  "extended",
    "renamed", "set",     "promoted",  "demoted",  "replaced",   "swapped",
    "rose",    "fell",    "dropped",   "grew",     "climbed",
};

// Units of one measure each: a value that changes may change its unit with
// it ("30 minutes" → "2 hours", "500 MB" → "2 GB"). As written; compared stemmed.
constexpr std::array<std::string_view, 7> k_time_units = {"second", "minute", "hour", "day",
                                                          "week",   "month",  "year"};
constexpr std::array<std::string_view, 8> k_data_units = {"kb",  "mb",  "gb",  "tb",
                                                          "kib", "mib", "gib", "tib"};

// The measure a unit's stem is of: 1 for time, 2 for data, 0 for none.
int measure_of(const std::string& stem) {
  static const auto time = stems_of(k_time_units);
  static const auto data = stems_of(k_data_units);
  return time.contains(stem) ? 1 : data.contains(stem) ? 2 : 0;
}

// Whether two units' stems are of one measure.
bool one_measure(const std::string& a, const std::string& b) {
  return measure_of(a) != 0 && measure_of(a) == measure_of(b);
}

} // namespace

bool says_where(const std::string& stem) {
  static const auto stems = stems_of(k_where_words);
  return stems.contains(stem);
}

bool says_change(const std::string& stem) {
  static const auto stems = stems_of(k_change_words);
  return stems.contains(stem);
}

bool says_change_to(const std::string& stem) {
  static const auto relocating =
      stems_of(std::array<std::string_view, 3>{"moved", "switched", "migrated"});
  return says_change(stem) && !relocating.contains(stem);
}

bool moved_to(const ClaimTokens& in, const ClaimTokens& ex) {
  // Whether `token` of `a`'s predicate is a value (or a word) `b`'s predicate lacks.
  const auto only_in = [](const ClaimTokens& a, const ClaimTokens& b, bool values) {
    return [&a, &b, values](const std::string& token) {
      return holds(a.values, token) == values && !holds(b.predicate, token);
    };
  };
  // Most pairs judged here replace no value: told apart before anything is copied.
  const bool values_replaced =
      std::any_of(in.predicate.begin(), in.predicate.end(), only_in(in, ex, true)) &&
      std::any_of(ex.predicate.begin(), ex.predicate.end(), only_in(ex, in, true));
  if (!values_replaced) {
    return false;
  }
  const auto words_only_in = [&](const ClaimTokens& a, const ClaimTokens& b) {
    std::vector<std::string> out;
    std::copy_if(a.predicate.begin(), a.predicate.end(), std::back_inserter(out),
                 only_in(a, b, false));
    return out;
  };
  const auto added = words_only_in(in, ex);
  const auto dropped = words_only_in(ex, in);
  const bool verb_replaced = dropped.empty() || (dropped.size() == 1 && !ex.sequence.empty() &&
                                                 ex.sequence.front() == dropped.front());
  // A change said in the passive reads as the copula ("was upgraded to
  // Postgres 16" as "was Postgres 16", see change_to_as_copula): the copula
  // takes the place of the older's verb.
  const bool copula_for_verb = added.empty() && !dropped.empty() && in.copular;
  return verb_replaced &&
         (copula_for_verb ||
          (!added.empty() && std::all_of(added.begin(), added.end(), says_change)));
}

std::optional<ClaimTokens> read_about(const ClaimTokens& in, const ClaimTokens& ex) {
  // Each word of `in`'s subject is one of `ex`'s subject or of its predicate,
  // and at least one is of its predicate.
  const auto in_ex = [&](const std::string& token) {
    return holds(ex.subject, token) || holds(ex.predicate, token);
  };
  if (in.subject.size() <= ex.subject.size() || in.negated != ex.negated ||
      !std::includes(in.subject.begin(), in.subject.end(), ex.subject.begin(), ex.subject.end()) ||
      !std::all_of(in.subject.begin(), in.subject.end(), in_ex)) {
    return std::nullopt;
  }
  ClaimTokens out = ex;
  out.subject = in.subject;
  const auto in_subject = [&](const std::string& token) { return holds(in.subject, token); };
  std::erase_if(out.predicate, in_subject);
  std::erase_if(out.sequence, in_subject);
  return out;
}

bool at_one_place(const ClaimTokens& in, const ClaimTokens& ex) {
  if (in.values.empty() || in.values != ex.values) {
    return false;
  }
  return std::any_of(in.values.begin(), in.values.end(), names_a_place) ||
         (holds(in.words, "port") && holds(ex.words, "port"));
}

namespace {

// `out` (made from `side` when first needed) with the bare words of each of
// `other`'s values in code spans read as that value.
void read_quoted_names(std::optional<ClaimTokens>& out, const ClaimTokens& side,
                       const ClaimTokens& other) {
  for (const auto& [name, stems] : other.quoted_words) {
    const auto& now = out ? *out : side;
    const auto bare = [&](const std::string& stem) { return holds(now.words, stem); };
    if (holds(now.values, name) || !std::all_of(stems.begin(), stems.end(), bare)) {
      continue;
    }
    if (!out) {
      out = side;
    }
    out->values.insert(std::lower_bound(out->values.begin(), out->values.end(), name), name);
    for (const auto& stem : stems) {
      std::erase(out->words, stem);
      for (auto* list : {&out->subject, &out->predicate, &out->chosen, &out->passed_over}) {
        replace_sorted(*list, stem, name);
      }
      std::erase(out->sequence, stem); // values are left out of the sequence
    }
  }
}

// `out` (made from `side` when first needed) with each of `side`'s
// compounds that `other` writes as one word read as that word.
void read_compounds_whole(std::optional<ClaimTokens>& out, const ClaimTokens& side,
                          const ClaimTokens& other) {
  for (const auto& [whole, parts] : side.compounds) {
    const auto& now = out ? *out : side;
    const auto part = [&](const std::string& stem) { return holds(now.words, stem); };
    if (!holds(other.words, whole) || holds(now.words, whole) ||
        !std::all_of(parts.begin(), parts.end(), part)) {
      continue;
    }
    if (!out) {
      out = side;
    }
    for (auto* list :
         {&out->words, &out->subject, &out->predicate, &out->chosen, &out->passed_over}) {
      for (const auto& stem : parts) {
        replace_sorted(*list, stem, whole);
      }
    }
    const auto first = std::find(out->sequence.begin(), out->sequence.end(), parts.front());
    if (first != out->sequence.end()) {
      *first = whole;
      for (auto stem = parts.begin() + 1; stem != parts.end(); ++stem) {
        std::erase(out->sequence, *stem);
      }
    }
  }
}

// `out` (made from `side` when first needed) with its one unit `other`
// lacks written as `other`'s one unit it lacks, when both are of one
// measure and one value of each, the one it measures, is the other's lack
// too: "expire after 2 hours" then changes the value of "expire after 30
// minutes" ("12 months for monthly snapshots" is another retention than
// "30 days for daily snapshots"). Only the side whose unit sorts after the
// other's is rewritten, so that the two read alike rather than swapped.
void read_unit_alike(std::optional<ClaimTokens>& out, const ClaimTokens& side,
                     const ClaimTokens& other) {
  const auto& now = out ? *out : side;
  const auto mine = missing(now.units, other.units);
  const auto theirs = missing(other.units, now.units);
  if (mine.size() != 1 || theirs.size() != 1 || mine.front() < theirs.front() ||
      !one_measure(mine.front(), theirs.front()) || missing(now.values, other.values).size() != 1 ||
      missing(other.values, now.values).size() != 1) {
    return;
  }
  if (!out) {
    out = side;
  }
  for (auto* list : {&out->words, &out->subject, &out->predicate, &out->units, &out->narrowed}) {
    replace_sorted(*list, mine.front(), theirs.front());
  }
  std::replace(out->sequence.begin(), out->sequence.end(), mine.front(), theirs.front());
}

// `out` (made from `side` when first needed) with each value its links'
// targets name that `other` writes in its text, as a value of `side`'s too.
void read_link_targets(std::optional<ClaimTokens>& out, const ClaimTokens& side,
                       const ClaimTokens& other) {
  for (const auto& target : side.link_targets) {
    if (!holds(other.values, target) || holds(out ? out->values : side.values, target)) {
      continue;
    }
    if (!out) {
      out = side;
    }
    for (auto* list : {&out->values, &out->predicate}) {
      list->insert(std::lower_bound(list->begin(), list->end(), target), target);
    }
  }
}

} // namespace

std::optional<ClaimTokens> with_names_of(const ClaimTokens& side, const ClaimTokens& other) {
  std::optional<ClaimTokens> out;
  read_quoted_names(out, side, other);
  read_compounds_whole(out, side, other);
  read_link_targets(out, side, other);
  read_unit_alike(out, side, other);
  return out;
}

// In sorted `list`, `from` replaced with `to` (kept sorted and unique).
void replace_sorted(std::vector<std::string>& list, const std::string& from,
                    const std::string& to) {
  const auto at = std::lower_bound(list.begin(), list.end(), from);
  if (at == list.end() || *at != from) {
    return;
  }
  list.erase(at);
  const auto place = std::lower_bound(list.begin(), list.end(), to);
  if (place == list.end() || *place != to) {
    list.insert(place, to);
  }
}

} // namespace detail

std::size_t tokens_read_alike(const ClaimTokens& claim) {
  std::size_t changed = !claim.moved.empty()                       ? 1 + claim.moved_when.size()
                        : detail::states_what_changes_leave(claim) ? 1
                                                                   : 0;
  // A compound's parts are missing from a claim that writes it as one word.
  for (const auto& [whole, parts] : claim.compounds) {
    changed += parts.size();
  }
  // A value's unit may be read as another of its measure (see read_unit_alike).
  changed += std::any_of(claim.units.begin(), claim.units.end(),
                         [](const std::string& unit) { return detail::measure_of(unit) != 0; })
                 ? 1
                 : 0;
  if (claim.values.empty()) {
    return changed;
  }
  const auto where = std::count_if(claim.words.begin(), claim.words.end(), detail::says_where);
  return static_cast<std::size_t>(where) + claim.quoted_words.size() + changed;
}

} // namespace engram::claims
