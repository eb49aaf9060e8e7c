// Choices judged against each other and against plain claims (see choice.hpp).
#include "claims/choice.hpp"

#include "claims/token_words.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace engram::claims::detail {

// Whether `in` makes the choice of `ex` the other way: it passes over what
// `ex` takes ("Use Jest instead of Vitest" after "Use Vitest instead of
// Jest"), or takes what `ex` passes over.
// A word on both sides of a choice ("the shared runner pool instead of
// self-hosted runners") says nothing of which way it goes.
bool reverses_choice(const ClaimTokens& in, const ClaimTokens& ex) {
  // Whether a word of `side` is on `taken` of `ex` and not on its other side.
  const auto meets = [&](const std::vector<std::string>& side,
                         const std::vector<std::string>& taken,
                         const std::vector<std::string>& other) {
    return std::any_of(side.begin(), side.end(),
                       [&](const std::string& s) { return holds(taken, s) && !holds(other, s); });
  };
  return meets(in.passed_over, ex.chosen, ex.passed_over) ||
         meets(in.chosen, ex.passed_over, ex.chosen);
}

// Whether `in` and `ex` are two choices that pass over different things
// ("Use fd instead of find", "Use trash instead of rm"): both hold.
bool another_choice(const ClaimTokens& in, const ClaimTokens& ex) {
  return !in.passed_over.empty() && !ex.passed_over.empty() &&
         std::none_of(in.passed_over.begin(), in.passed_over.end(),
                      [&](const std::string& over) { return holds(ex.passed_over, over); });
}

namespace {

// Whether the choice `claim` states picks one thing to use instead of
// another ("Use pnpm instead of npm", "replaced Jenkins with GitHub
// Actions"), rather than ranking them: "prefers tea over coffee" and
// "prefers matcha over tea" both hold.
bool picks_one(const ClaimTokens& claim) {
  static const std::array<std::string, 5> k_ranking = {
      comparable_stem("prefers"), comparable_stem("likes"), comparable_stem("loves"),
      comparable_stem("favours"), comparable_stem("favors")};
  return holds(claim.words, "instead") &&
         std::none_of(k_ranking.begin(), k_ranking.end(),
                      [&](const std::string& stem) { return holds(claim.chosen, stem); });
}

} // namespace

// Whether `in` turns from what the choice `ex` takes to another thing, the
// rest of the two alike: "Use Bun's test runner instead of Vitest" after
// "Use Vitest instead of Jest", "The team replaced GitHub Actions with
// Buildkite" after "… replaced Jenkins with GitHub Actions"; or to what it
// passed over. The older choice is then made no more. What else they say,
// on either side of the contrast, must match: "Use SQLite instead of
// Postgres for tests" leaves "Use Postgres instead of MySQL for new
// services".
bool chains_choice(const ClaimTokens& in, const ClaimTokens& ex) {
  if (!picks_one(in) || !picks_one(ex)) {
    return false;
  }
  // What the older takes that the newer does not ("pnpm" of "Use pnpm …"
  // against "Use yarn …"): the newer passes over that, and only that; or it
  // takes just what the older passed over ("Use pnpm instead of npm" after
  // "Use yarn instead of pnpm"). What both pass over ("in the monorepo",
  // after the contrast) is said of both.
  const auto left = missing(ex.chosen, in.chosen);
  const auto taken = missing(in.chosen, ex.chosen);
  const bool turns_from = !left.empty() && missing(in.passed_over, ex.passed_over) == left;
  const bool turns_to = !taken.empty() && missing(ex.passed_over, in.passed_over) == taken;
  return !in.passed_over.empty() && !ex.passed_over.empty() && (turns_from || turns_to) &&
         !in.negated && !ex.negated && in.subject == ex.subject;
}

// Whether one claim turns down what the other, a choice, passes over ("Never
// use npm" and "Use pnpm instead of npm"): the negation is no flipped
// polarity, for both say the same of it.
bool turns_down_alike(const ClaimTokens& in, const ClaimTokens& ex) {
  const auto turns_down = [](const ClaimTokens& negated, const ClaimTokens& choice) {
    return negated.negated && !choice.negated &&
           std::any_of(choice.passed_over.begin(), choice.passed_over.end(), [&](const auto& s) {
             return holds(negated.predicate, s) && !holds(choice.chosen, s);
           });
  };
  return turns_down(in, ex) || turns_down(ex, in);
}

// Whether `in` chooses something else over what `ex` states, naming it as
// what it passes over ("Browser automation now uses Chromium instead of
// Firefox" after "Default browser for automation: Firefox"): every word of
// the older predicate and all but one of its subject's are in the newer
// claim, neither is negated, and the older is no choice itself (two choices
// are judged above). A thing passed over that the older names only in its
// subject ("rm -rf is dangerous") is not what it states. A change from it
// ("The team switched from Jira to Linear" after "The team uses Jira")
// replaces the verb that opened the older's predicate, and is said of all
// of its subject: "Ana moved from Berlin to Lisbon" does not move the office
// that "The office is in Berlin" is about.
bool passes_over_older(const ClaimTokens& in, const ClaimTokens& ex) {
  if (in.passed_over.empty() || !ex.passed_over.empty() || in.negated || ex.negated ||
      ex.predicate.empty() ||
      !std::includes(in.values.begin(), in.values.end(), ex.values.begin(), ex.values.end())) {
    return false;
  }
  const bool states_it = std::any_of(ex.predicate.begin(), ex.predicate.end(), [&](const auto& s) {
    return holds(in.passed_over, s) && !holds(in.chosen, s);
  });
  const auto in_newer = [&](const std::string& token) {
    return holds(in.words, token) || holds(in.values, token);
  };
  const auto subject_missing = std::count_if(ex.subject.begin(), ex.subject.end(),
                                             [&](const auto& s) { return !in_newer(s); });
  const auto stated = [&](const std::string& token) {
    return in_newer(token) ||
           (in.changed_from && !ex.sequence.empty() && token == ex.sequence.front());
  };
  return states_it && subject_missing <= (in.changed_from ? 0 : 1) &&
         std::all_of(ex.predicate.begin(), ex.predicate.end(), stated);
}

} // namespace engram::claims::detail
