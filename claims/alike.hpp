// Claims that say one thing in other words, read alike when compared:
// where a thing is found ("runs on port 8123", "is reachable on port
// 8123"), a name written in a code span or bare (`tower`, "tower"), and a
// value said to have changed ("was moved to Fridays").
// Private to claims/ (compare.cpp, relocation.cpp).
#pragma once

#include "claims/tokens.hpp"

#include <optional>
#include <string>
#include <vector>

namespace engram::claims::detail {

// Whether `stem` is a word that says only where a thing is found, beside
// the value that says where ("runs", "reachable", "address", "ip").
[[nodiscard]] bool says_where(const std::string& stem);

// Whether `stem` is a word that says a value changed ("moved", "upgraded").
[[nodiscard]] bool says_change(const std::string& stem);

// Whether `stem` is the stem of a verb of change that, active with "to"
// after it, states its subject's new value as its passive does ("changed to
// Omar", "downgraded to the Pro plan"). Not moving, switching or migrating,
// which relocation.cpp reads as a change of place, team or what is used.
[[nodiscard]] bool says_change_to(const std::string& stem);

// Whether `in` says that the value `ex` states changed, naming the change
// instead of the verb that stated it: "Deploys were moved to Fridays" after
// "Deploys happen on Thursdays", "Staging was upgraded to Postgres 16"
// after "Staging uses Postgres 14". The subjects are equal (checked by the
// caller); the values are replaced, the words `in` adds are all words of a
// change (or none, its copula standing for the change), and `ex` drops at
// most the verb that opens its predicate.
[[nodiscard]] bool moved_to(const ClaimTokens& in, const ClaimTokens& ex);

// `ex` read as a statement about `in`'s subject when `ex` writes that subject
// with fewer words and says the rest in its predicate: an instruction
// ("Send the weekly report on Fridays") whose object holds the subject ("The
// weekly report was moved to Mondays"), or a statement whose predicate holds
// what `in` writes into its subject ("Backups run nightly to the external
// drive" against "The nightly backup to the external drive was moved"). The
// subject's words are taken out of `ex`'s predicate. nullopt otherwise, or
// when one of them is negated and the other not.
[[nodiscard]] std::optional<ClaimTokens> read_about(const ClaimTokens& in, const ClaimTokens& ex);

// Whether two claims state one value of where their subject is found: the
// same values, one of them a place (a URL, a path, an IPv4 address, a host
// name), or a port both name. Words that say only that may then differ.
[[nodiscard]] bool at_one_place(const ClaimTokens& in, const ClaimTokens& ex);

// `side` with the bare words of each value that `other` writes as plain
// words in a code span read as that value: "The hostname is tower" names
// what "Hostname: `tower`" does, and "Run make test" runs what "Run `make
// test`" does, though a bare word is stemmed ("tow") and a value is not.
// So too a word `side` writes in parts joined by hyphens and `other` as one:
// "wi-fi" reads as "wifi", "on-call" as "oncall". And a value a link's
// target names in `side` that `other` writes in its text is a value of
// `side`'s, and a value's unit replaced with its value by another of one
// measure is read as that one ("2 hours" against "30 minutes"). nullopt
// when `side` writes none of them so.
[[nodiscard]] std::optional<ClaimTokens> with_names_of(const ClaimTokens& side,
                                                       const ClaimTokens& other);

// In sorted `list`, `from` replaced with `to` (kept sorted and unique);
// nothing when it lacks `from`.
void replace_sorted(std::vector<std::string>& list, const std::string& from, const std::string& to);

} // namespace engram::claims::detail
