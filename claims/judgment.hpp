// The evidence a claim comparison's verdict rests on, and the words the
// consolidation record gives for it. Private to claims/.
#pragma once

#include "claims/tokens.hpp"

#include <engram/claim.hpp>
#include <string>
#include <vector>

namespace engram::claims::detail {

// What a verdict rests on, for the record's reason.
enum class Why : unsigned char {
  equal,         // equal after normalising
  same_words,    // too short for containment, and the same tokens
  too_few,       // too short for containment, and not the same tokens
  contained,     // the incoming claim's tokens are in the existing one's
  other_subject, // the claims are about different things
  other_scope,   // each holds a scope or name the other lacks
  too_little,    // too little shared to be one subject
  polarity,      // the same statement, negated on one side
  reversed,      // a choice made the other way: what one takes, the other passes over
  other_choice,  // each passes over something else: two choices, both may hold
  passed_over,   // the newer chooses something else over what the older states
  chained,       // the newer turns from the older's choice, or to what it passed over
  turned_down,   // one turns down what the other passes over: they agree
  other_day,     // another day something is closed, or the user keeps a habit: both hold
  moment,        // one dates an event ("2 hours ago"), the other states a period: both hold
  aspect,        // one says on what day, the other at what time or another thing: both hold
  value,         // a value replaced (with words maybe added)
  qualifier,     // the existing claim, with something added
  complement,    // a copula's complement replaced
  moved,         // the value said to have changed ("was moved to Fridays")
  substituted,   // one word of the predicate replaced, outside a copula: either may hold
  joined,        // a change that may add to what the other states ("joined Globex"): both kept
  different,     // the same subject, saying something else
  reason_added,  // the same claim, with a reason the older lacks
  other_reason,  // the same claim, each with a reason the other lacks: both kept
  logged,        // two log lines of other days, each on what happened then: both hold
  holder,        // another holds the one thing the older says its subject holds
};

// The evidence for a verdict.
struct Judgment {
  Relation relation = Relation::distinct;
  Why why = Why::different;
  double score = 0.0;
};

// The record's reason for a judgment of `in` against `ex`.
[[nodiscard]] std::string reason_for(const Judgment& j, const ClaimTokens& in,
                                     const ClaimTokens& ex);

} // namespace engram::claims::detail
