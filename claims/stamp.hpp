// Log stamps: the date or time a logged line opens with, private to claims/.
#pragma once

#include <string>
#include <string_view>

namespace engram::claims::detail {

// `text` without the stamp a log line opens with: "2026-12-06: Race note 7
// says …", "[14:32] Restarted the cache" and "2026-12-06 14:32 — Deployed
// v2" are about what follows, and the stamp says when it was written, not
// what: a claim restated on another day is the same claim. A date that a
// verb follows ("2026-12-06 is the release date") is the subject and stays.
// A list marker, a task's box or a quote before the stamp stays first.
[[nodiscard]] std::string without_stamp(std::string_view text);

// The stamp a log line opens with, its date and time as written
// ("2026-12-06", "14:32", "2026-12-06 14:32"), or "" when there is none.
[[nodiscard]] std::string stamp_of(std::string_view text);

} // namespace engram::claims::detail
