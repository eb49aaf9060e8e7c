// Reported speech read as what was said, private to claims/ (see
// token_speech.cpp).
#pragma once

#include <string>
#include <string_view>

namespace engram::claims::detail {

// `text` with the frame of reported speech taken off, the speaker put in
// place of the pronoun that names them: "Ryan said he prefers short
// answers" says "Ryan prefers short answers", "Ryan told me his flight is
// on May 5" "Ryan's flight is on May 5", "The user mentioned they are
// allergic to shellfish" "The user are allergic to shellfish" (verbs'
// forms are no matter to comparison). A speaker of a few words only, and a
// clause of a few words at least that names the speaker so: anything else
// is returned as it is ("Race note 7 says the job ran" is the note's).
[[nodiscard]] std::string reported_as_said(std::string_view text);

// `text` without an aside at its end that says only how the writer knows
// it: who confirmed or checked it, or where it comes from ("(confirmed at
// Monday's meeting)", "— verified by Dana", "(per the manual)", "(she said
// so again on Monday)"). A claim vouched for again is the same claim. An
// aside that narrows ("verified in staging only", "not confirmed") stays.
[[nodiscard]] std::string without_vouching(std::string_view text);

} // namespace engram::claims::detail
