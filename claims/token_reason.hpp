// A reason said after a claim, read apart from the claim, private to
// claims/ (see token_reason.cpp).
#pragma once

#include <string>
#include <string_view>

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
[[nodiscard]] std::string without_reason(std::string_view text, std::string& reason);

} // namespace engram::claims::detail
