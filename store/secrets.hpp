// Secrets: text that looks like a credential, found by shape (private keys
// and their bodies, the tokens of the issuers a well-known scanner covers,
// a password in a URL) and by entropy (a random-looking value assigned to a
// key, secret, token or password, on its line or wrapped onto the next). A
// file holding one is never committed, and no record or message quotes one:
// a memory store is a git repository, and a pushed commit cannot be unpushed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::store {

// Where a credential was seen and what kind it looks like; never the secret itself.
struct SecretFinding {
  int line = 1;          // 1-based line of the text where it starts
  std::string kind;      // e.g. "an AWS access key id", "a private key"
  std::size_t begin = 0; // its bytes in the text, [begin, end), to leave out
  std::size_t end = 0;
};

// The first thing in `text` that looks like a credential, or nullopt. Linear
// in the size of the text; no regular expressions, so no input can make it slow.
[[nodiscard]] std::optional<SecretFinding> find_secret(std::string_view text);

// Everything in `text` that looks like a credential, in the order it comes.
[[nodiscard]] std::vector<SecretFinding> find_secrets(std::string_view text);

// `text` with each credential replaced by `[held back: <kind>]`: what a
// record, a commit message or a generated file may quote of a claim.
[[nodiscard]] std::string redact_secrets(std::string_view text);

// The Shannon entropy of `text` in bits per byte.
[[nodiscard]] double entropy_bits(std::string_view text);

} // namespace engram::store
