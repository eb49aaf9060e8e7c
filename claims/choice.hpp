// Claims that state a choice ("Use Vitest instead of Jest", "The team
// switched from Jira to Linear"), judged against each other and against
// claims that state what was chosen or passed over. Private to claims/
// (compare.cpp).
#pragma once

#include "claims/tokens.hpp"

namespace engram::claims::detail {

// Whether `in` makes the choice of `ex` the other way: it passes over what
// `ex` takes ("Use Jest instead of Vitest" after "Use Vitest instead of
// Jest"), or takes what `ex` passes over.
[[nodiscard]] bool reverses_choice(const ClaimTokens& in, const ClaimTokens& ex);

// Whether `in` and `ex` are two choices that pass over different things
// ("Use fd instead of find", "Use trash instead of rm"): both hold.
[[nodiscard]] bool another_choice(const ClaimTokens& in, const ClaimTokens& ex);

// Whether `in` turns from what the choice `ex` takes to another thing, the
// rest alike ("Use Bun's test runner instead of Vitest" after "Use Vitest
// instead of Jest"): an update.
[[nodiscard]] bool chains_choice(const ClaimTokens& in, const ClaimTokens& ex);

// Whether one claim turns down what the other, a choice, passes over
// ("Never use npm" and "Use pnpm instead of npm"): they agree.
[[nodiscard]] bool turns_down_alike(const ClaimTokens& in, const ClaimTokens& ex);

// Whether `in` chooses something else over what `ex`, no choice itself,
// states ("Browser automation now uses Chromium instead of Firefox" after
// "Default browser for automation: Firefox").
[[nodiscard]] bool passes_over_older(const ClaimTokens& in, const ClaimTokens& ex);

} // namespace engram::claims::detail
