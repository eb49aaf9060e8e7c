// File-name slugs for memories created from claims.
#pragma once

#include <string>
#include <string_view>

namespace engram::claims {

// A safe file slug for `text`: letters transliterated to ASCII (é → e, ß →
// ss, Ж → zh), lower-case, runs of anything but [a-z0-9] as one '-', no '-'
// at either end, at most 60 characters (cut at a '-' when one is near), and
// "memory" when nothing is left.
[[nodiscard]] std::string slug(std::string_view text);

} // namespace engram::claims
