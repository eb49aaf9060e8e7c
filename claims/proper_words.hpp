// The names in a claim: the words written capitalised past its first word.
// Private to claims/ (tokens.cpp).
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>

namespace engram::claims::detail {

// The words written capitalised past a claim's first word, case-folded as
// its tokens are: names, which a word's shape alone would take for verbs
// ("Memcached"), in any alphabet ("Kraków", "Łódź").
[[nodiscard]] std::unordered_set<std::string> proper_words(std::string_view text);

} // namespace engram::claims::detail
