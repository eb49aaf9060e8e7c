// Secret shapes: the credentials issuers mint with a fixed shape — a prefix,
// then a run of given characters of a given length (`sk_live_` and 24 or
// more letters and digits) — as one table, and the few shapes a table row
// cannot say (JSON Web Tokens, Telegram's bot tokens, OpenAI's `sk-` keys).
// Which kinds exist follows the list a well-known secret scanner (gitleaks)
// covers; the shapes are written from each issuer's documentation.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace engram::store {

// A credential of a known shape in a line: where it is and what it is.
struct ShapedToken {
  std::size_t begin = 0;  // byte offset in the line
  std::size_t length = 0; // bytes
  std::string_view kind;  // "a Stripe secret key"
};

// The credential of a known shape starting at `i`, a word start of `line`
// (not preceded by a letter or digit), or nullopt. Linear in what it reads:
// no run is followed past 256 bytes.
std::optional<ShapedToken> shaped_token_at(std::string_view line, std::size_t i);

// True for a character that may start a shaped token: the scan asks
// shaped_token_at only there.
bool may_start_token(char c);

} // namespace engram::store
