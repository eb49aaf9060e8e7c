// Claims that say one thing in other words, read alike when compared:
// where a thing is found ("runs on port 8123", "is reachable on port
// 8123"), and a name written in a code span or bare (`tower`, "tower").
// Private to claims/ (compare.cpp).
#pragma once

#include "claims/tokens.hpp"

#include <optional>
#include <string>

namespace engram::claims::detail {

// Whether `stem` is a word that says only where a thing is found, beside
// the value that says where ("runs", "reachable", "address", "ip").
[[nodiscard]] bool says_where(const std::string& stem);

// Whether two claims state one value of where their subject is found: the
// same values, one of them a place (a URL, a path, an IPv4 address, a host
// name), or a port both name. Words that say only that may then differ.
[[nodiscard]] bool at_one_place(const ClaimTokens& in, const ClaimTokens& ex);

// `side` with each bare word that `other` writes as a name in a code span
// read as that name: "The hostname is tower" names what "Hostname: `tower`"
// does, though a bare word is stemmed ("tow") and a value is not. nullopt
// when `side` writes none of them bare.
[[nodiscard]] std::optional<ClaimTokens> with_names_of(const ClaimTokens& side,
                                                       const ClaimTokens& other);

} // namespace engram::claims::detail
