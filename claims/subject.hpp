// The subject model: a claim read as what it is about (its subject) and what
// it says of it (its predicate). Two claims can update each other only when
// they are about the same thing; "Server web-1 has 16 GB" and "Server web-2
// has 32 GB" share a shape, not a subject. Read from word shapes and a few
// word lists, deterministically, so a user can see why two claims paired.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace engram::claims {

// One token of a claim, in the order written.
struct Token {
  std::string text;      // lower-case; a value in its canonical form
  bool value = false;    // a number, version, date, quoted value, URL, path or switch position
  bool boundary = false; // followed by a colon or an equals sign: "Owner: Priya"
  bool opener = false;   // the first word, opening an instruction ("Always", "Disable")
  bool hyphen = false;   // written joined to the next word by a hyphen: "wi-fi", "on-call"
};

// Where a claim's predicate opens, and how.
struct Predicate {
  std::size_t at = 0;   // the first token of the predicate: those before are the subject
  bool copular = false; // it states the subject's one value: "is main", "runs on Vite", "Owner: X"
  // A verb and a preposition open it ("runs on Vite"): its value is one of
  // a kind, but a name there (a host, "runs on cache-01") is one of many.
  bool by_verb = false;
  // It opens with a verb in the third person ("Prefers short answers"), as a
  // profile's lines about the user do: its subject is the user, unwritten.
  bool user_unwritten = false;
  // How far past `at` the participle of a passive is ("is written in Go",
  // "is now hosted on AWS"), 0 when there is none: that verb, not the
  // copula, is what relates the subject to its value.
  std::size_t passive = 0;
};

// Whether `word` (lower-case, the first of a claim) opens an instruction.
[[nodiscard]] bool opens_instruction(std::string_view word);

// The predicate of `tokens`. `proper` holds the words written capitalised
// past the claim's first (names: "is Memcached" is a value, not a verb).
[[nodiscard]] Predicate predicate_of(const std::vector<Token>& tokens,
                                     const std::unordered_set<std::string>& proper);

// Reads "Priya is the on-call lead" as "The on-call lead is Priya": a short
// subject said to be "the" something is that something's one value, so
// "Marco is the on-call lead" updates it, and "Marco is the tech lead" is
// about another role. Moves the tokens and the predicate to match.
void put_definite_complement_first(std::vector<Token>& tokens, Predicate& predicate);

// The first token after the copula at `at` and any adverb of time after it
// ("is now"), or the tokens' size when `at` holds no copula.
[[nodiscard]] std::size_t after_copula(const std::vector<Token>& tokens, std::size_t at);

// Whether the copula at `at` states a trait: a complement that is neither a
// thing named (an article, a determiner or a name opens it) nor a relation
// (a preposition opens it), and holds no value: "is vegetarian", "is
// left-handed".
[[nodiscard]] bool copula_states_trait(const std::vector<Token>& tokens, std::size_t at,
                                       const std::unordered_set<std::string>& proper);

// Whether the token at `at` is a place's number before its name (in
// `proper`): the 14 of "14 Mill Road".
[[nodiscard]] bool house_number(const std::vector<Token>& tokens, std::size_t at,
                                const std::unordered_set<std::string>& proper);

// Whether the copula at `at` says where its subject is, in or at a name
// (`proper`), or at a place's number and name: "is in Austin", "is now at
// Globex", "is at 14 Mill Road". Not "is in the city", nor "is at 10:00".
[[nodiscard]] bool copula_at_place(const std::vector<Token>& tokens, std::size_t at,
                                   const std::unordered_set<std::string>& proper);

// The preposition a verb at `verb` relates its subject by ("lives in",
// "works from", "deploys with"), or "" when none follows it. Working for
// is working at: both name an employer.
[[nodiscard]] std::string preposition_after(const std::vector<Token>& tokens, std::size_t verb);

// Whether a value names a thing rather than measures it: letters, then a
// digit (web-1, db01, us-east-1), as a host or a region is named, or "#"
// and a number, as an issue or a pull request is (#812).
[[nodiscard]] bool is_identifier(std::string_view value);

// Whether an identifier names a version ("c++17", "es2022", "python3"):
// a version family's name, or a year, before its number.
[[nodiscard]] bool is_version_name(std::string_view value);

// Whether a word (stemmed) names a scope a fact holds in: an environment
// (staging, production), a platform (iOS, Android). Replacing one scope by
// another states a second fact, never an update of the first.
[[nodiscard]] bool is_scope_word(std::string_view stem);

} // namespace engram::claims
