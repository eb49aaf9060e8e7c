// Quotes and the punctuation around tokens, private to claims/ (see
// token_quotes.cpp).
#pragma once

#include "claims/subject.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace engram::claims::detail {

// `token` without the punctuation around it.
[[nodiscard]] std::string_view trim_token(std::string_view token);

// Takes the quoted value or word whose quote (or backtick) opens at `i` into
// `out`; where the text after its closing quote starts, or npos (and nothing
// taken) when it is not closed.
std::size_t take_quoted(const std::string& folded, std::size_t i, std::vector<Token>& out);

} // namespace engram::claims::detail
