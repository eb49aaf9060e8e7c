// Secrets: text that looks like a credential, found by pattern (private keys,
// cloud and API tokens) and by entropy (a random-looking value assigned to a
// key, secret, token or password). A file holding one is never committed:
// a memory store is a git repository, and a pushed commit cannot be unpushed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace engram::store {

// Where a credential was seen and what kind it looks like; never the secret itself.
struct SecretFinding {
  int line = 1;     // 1-based line of the text
  std::string kind; // e.g. "an AWS access key id", "a private key"
};

// The first thing in `text` that looks like a credential, or nullopt. Linear
// in the size of the text; no regular expressions, so no input can make it slow.
[[nodiscard]] std::optional<SecretFinding> find_secret(std::string_view text);

// The Shannon entropy of `text` in bits per byte.
[[nodiscard]] double entropy_bits(std::string_view text);

} // namespace engram::store
