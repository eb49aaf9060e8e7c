// The words of a comparison's reason, for the consolidation record.
#include "claims/judgment.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace engram::claims::detail {
namespace {

// The tokens of sorted `a` that sorted `b` lacks, as words.
std::string listed_missing(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const auto out = missing(a, b);
  return out.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(out, ", "));
}

// The reason for a verdict on what is said beside what the claims state:
// a log line's stamp, or a reason.
std::string said_beside(Why why, const ClaimTokens& in, const ClaimTokens& ex) {
  if (why == Why::logged) {
    return fmt::format("logged on another day, of what happened then ({} → {})", ex.stamp,
                       in.stamp);
  }
  if (why == Why::reason_added) {
    return fmt::format("the same, with its reason ({})", fmt::join(in.reason, ", "));
  }
  return fmt::format("the same, for another reason ({} → {})", listed_missing(ex.reason, in.reason),
                     listed_missing(in.reason, ex.reason));
}

// The reason for a verdict that either claim may be what holds: a word
// replaced, a change that may add to the older, another holder.
std::string either_holds(const Judgment& j, const ClaimTokens& in, const ClaimTokens& ex) {
  constexpr std::string_view k_kept = ": both kept, for a person to judge";
  if (j.why == Why::holder) {
    return fmt::format("another holds it ({} → {}){}", listed_missing(ex.subject, in.subject),
                       listed_missing(in.subject, ex.subject),
                       j.relation == Relation::update ? std::string_view() : k_kept);
  }
  return fmt::format("same subject, {} ({} → {}){}",
                     j.why == Why::joined ? "joined another" : "one word replaced",
                     listed_missing(ex.predicate, in.predicate),
                     listed_missing(in.predicate, ex.predicate), k_kept);
}

// The reason for claims judged to hold in other scopes: a scope's name, the
// things a value is said of, or what it counts narrowed (see scope.hpp).
std::string other_scope(const ClaimTokens& in, const ClaimTokens& ex) {
  if (!missing(in.scopes, ex.scopes).empty()) {
    return fmt::format("in another scope ({} → {})", listed_missing(ex.scopes, in.scopes),
                       listed_missing(in.scopes, ex.scopes));
  }
  if (!missing(in.cases, ex.cases).empty() && !missing(ex.cases, in.cases).empty()) {
    return fmt::format("of other things ({} → {})", listed_missing(ex.cases, in.cases),
                       listed_missing(in.cases, ex.cases));
  }
  const auto narrowed = missing(in.narrowed, ex.words);
  return fmt::format("within what the older does not name ({})",
                     narrowed.empty() ? listed_missing(in.units, ex.words)
                                      : fmt::format("{}", fmt::join(narrowed, ", ")));
}

} // namespace

std::string reason_for(const Judgment& j, const ClaimTokens& in, const ClaimTokens& ex) {
  const auto in_all = joined(in.words, in.values);
  const auto ex_all = joined(ex.words, ex.values);
  switch (j.why) {
  case Why::equal:
    return "equal after normalising";
  case Why::same_words:
    return "same significant words";
  case Why::too_few:
    return "too few significant words to call near-equal";
  case Why::contained:
    return fmt::format("{:.0f}% of its significant words are in the existing claim", j.score * 100);
  case Why::other_subject:
    return fmt::format("about another subject ({} → {})", listed_missing(ex.subject, in.subject),
                       listed_missing(in.subject, ex.subject));
  case Why::other_scope:
    return other_scope(in, ex);
  case Why::too_little:
    return "too little shared to be one subject";
  case Why::reversed:
    return fmt::format("same subject, the choice reversed ({} over {})",
                       listed_missing(in.chosen, ex.chosen),
                       listed_missing(in.passed_over, ex.passed_over));
  case Why::other_choice:
    return fmt::format("another choice (passes over {}, not {})",
                       listed_missing(in.passed_over, ex.passed_over),
                       listed_missing(ex.passed_over, in.passed_over));
  case Why::turned_down:
    return fmt::format(
        "both turn it down ({})",
        listed_missing(joined(in.passed_over, ex.passed_over), joined(in.chosen, ex.chosen)));
  case Why::passed_over:
    return fmt::format("chooses something else over what it stated (adds {})",
                       listed_missing(in.chosen, ex.words));
  case Why::chained:
    return fmt::format("same subject, another choice made since ({} → {})",
                       listed_missing(ex.chosen, in.chosen), listed_missing(in.chosen, ex.chosen));
  case Why::other_day:
    return fmt::format("{} on another day as well ({} → {})", in.closure ? "closed" : "done",
                       listed_missing(ex.values, in.values), listed_missing(in.values, ex.values));
  case Why::moment:
    return fmt::format("one says when it happened, the other how often or how long ({} and {})",
                       listed_missing(ex.values, in.values), listed_missing(in.values, ex.values));
  case Why::aspect:
    return fmt::format(
        "each says another thing of it: a day, a time of day, something else ({} and {})",
        listed_missing(ex.values, in.values), listed_missing(in.values, ex.values));
  case Why::polarity:
    return fmt::format("same subject, polarity flipped ({} → {})",
                       ex.negated ? "negative" : "positive", in.negated ? "negative" : "positive");
  case Why::value:
    return fmt::format("same subject, value changed ({} → {})",
                       listed_missing(ex.values, in.values), listed_missing(in.values, ex.values));
  case Why::logged:
  case Why::reason_added:
  case Why::other_reason:
    return said_beside(j.why, in, ex);
  case Why::qualifier:
    return fmt::format("same subject, qualified (adds {})", listed_missing(in_all, ex_all));
  case Why::complement:
    return fmt::format("same subject, its value changed ({} → {})", listed_missing(ex_all, in_all),
                       listed_missing(in_all, ex_all));
  case Why::moved: {
    // A passive of change reads as its copula: no word of it is left to name.
    const auto said = listed_missing(in.words, ex.words);
    return fmt::format("same subject, value changed ({} → {}, said {})",
                       listed_missing(ex.values, in.values), listed_missing(in.values, ex.values),
                       said == "nothing" ? std::string("another way") : "as " + said);
  }
  case Why::substituted:
  case Why::joined:
  case Why::holder:
    return either_holds(j, in, ex);
  case Why::different:
    break;
  }
  return fmt::format("same subject, says something else (adds {})", listed_missing(in_all, ex_all));
}

} // namespace engram::claims::detail
