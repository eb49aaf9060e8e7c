// A reason said after a claim, read apart from the claim, private to
// claims/ (see token_reason.cpp).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace engram::claims::detail {

// `text` without a reason said after it, and that reason in `reason`
// (empty when there is none): "Don't mock the database — we got burned
// when the migration failed", "Deploys fail because the disk fills",
// "Ryan is not allergic to penicillin (the 2025 test was negative)". A
// reason is a clause of its own after a dash, a semicolon, a colon or an opening
// parenthesis (a verb after its first word), or what follows "because" or
// "otherwise"; what else follows a dash ("— not npm", "— except hotfixes",
// "— then restart the workers") is part of the claim. The claim before it
// must be a few words at least: "Note — the VPN is required" is all claim.
// Comments are read as spaces; a text of several paragraphs has no reason.
// Where an aside opens in a parenthesis that closes `text` ("… (the test
// was negative)."), as the claim's end and the aside's start; npos when
// there is none.
[[nodiscard]] std::pair<std::size_t, std::size_t> closing_aside(std::string_view text);

// The words of `text`, lower-cased, split at spaces, punctuation trimmed.
[[nodiscard]] std::vector<std::string> lower_words(std::string_view text);

[[nodiscard]] std::string without_reason(std::string_view text, std::string& reason);

} // namespace engram::claims::detail
