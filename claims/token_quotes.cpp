// Quotes and the punctuation around tokens: where a quoted value ends, and
// a quoted word or value taken whole (see token_quotes.hpp).
#include "claims/token_quotes.hpp"

#include "claims/token_values.hpp"

#include <string_view>

namespace engram::claims::detail {
namespace {

// The end of a quoted value opened at `open` by `quote`, or npos. A single
// quote opens only at a word start and closes only at a word end, so the
// apostrophe in "don't" is no quote.
std::size_t quote_end(const std::string& text, std::size_t open, char quote) {
  if (quote == '\'' && open > 0 && text[open - 1] != ' ') {
    return std::string::npos;
  }
  constexpr std::string_view k_word_end = " .,;:!?)]";
  for (auto close = text.find(quote, open + 1); close != std::string::npos;
       close = text.find(quote, close + 1)) {
    const bool at_word_end =
        close + 1 == text.size() || k_word_end.find(text[close + 1]) != std::string_view::npos;
    if (quote != '\'' || at_word_end) {
      return close > open + 1 ? close : std::string::npos;
    }
  }
  return std::string::npos;
}

} // namespace

std::string_view trim_token(std::string_view token) {
  constexpr std::string_view k_before = "([{<'*";
  constexpr std::string_view k_after = ")]}>.,;:!?'*";
  while (!token.empty() && k_before.find(token.front()) != std::string_view::npos) {
    token.remove_prefix(1);
  }
  while (!token.empty() && k_after.find(token.back()) != std::string_view::npos) {
    token.remove_suffix(1);
  }
  return token;
}

std::size_t take_quoted(const std::string& folded, std::size_t i, std::vector<Token>& out) {
  const char c = folded[i];
  const auto close = quote_end(folded, i, c);
  if (close == std::string::npos) {
    return std::string::npos;
  }
  // Quotes and backticks are markup: `/etc/x.conf` is the path /etc/x.conf,
  // and a word in quotes the word ("dark" is dark); code stays a value.
  auto inner = folded.substr(i + 1, close - i - 1);
  const bool word =
      c != '`' && inner.find_first_not_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos;
  out.push_back({word ? std::move(inner) : canonical_value(inner), !word, false});
  return close + 1;
}

} // namespace engram::claims::detail
