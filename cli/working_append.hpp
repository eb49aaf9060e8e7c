// Working append: the text edits behind `engram append` — a dated item put
// under a `## Section` of WORKING.md, or at the end of the episodic overflow
// file — kept apart from the command so they can be tested on strings.
#pragma once

#include "engram/date.hpp"

#include <string>
#include <string_view>

namespace engram::cli {

// `- YYYY-MM-DD: TEXT`, continuation lines indented two spaces so the whole
// text stays one list item; trailing line breaks dropped. Ends in `eol`.
std::string dated_item(const Date& date, std::string_view text, std::string_view eol);

// dated_item for the overflow file, with a last continuation line
// `  <!-- diverted from WORKING.md: ## SECTION -->` saying where it belongs.
std::string diverted_item(const Date& date, std::string_view text, std::string_view section,
                          std::string_view eol);

// `body` with `item` added after the last non-blank line of its `## section`
// (matched without regard to case), or with `## section` and the item added at
// the end when it has no such section. Every other byte is kept.
std::string insert_under_section(std::string_view body, std::string_view section,
                                 std::string_view item, std::string_view eol);

// `body` with `item` added at its end, on a line of its own.
std::string append_at_end(std::string_view body, std::string_view item, std::string_view eol);

// The whole of a new `episodic/<today>-working-memory.md` before its first
// item: the same frontmatter and title the working-memory rule writes.
std::string overflow_header(const Date& today, std::int64_t retention_days);

} // namespace engram::cli
