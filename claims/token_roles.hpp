// What a word is to tokenising: a stopword, a negation, a date's word or a
// switch's position, each from one list, found with one lookup.
#pragma once

#include <string_view>

namespace engram::claims {

// What a word is to tokenising, when it is one of the lists in token_roles.cpp.
enum class Role : unsigned char { none, negation, date, enabling, disabling, stopword };

namespace detail {

// The role of `word` (lower case): one hash lookup, where searching each list
// in turn compared every word of every claim with 126 others.
[[nodiscard]] Role role_of(std::string_view word);

} // namespace detail
} // namespace engram::claims
