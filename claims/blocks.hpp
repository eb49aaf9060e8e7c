// The Markdown blocks of a memory body that claims are cut from, found with
// md4c and located by the source offsets of their text.
#pragma once

#include "claims/source.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::claims {

// What a top-level block is, as far as claims care. Block quotes and lists are
// containers: their paragraphs and items are reported, not they.
enum class BlockKind {
  paragraph, // split into sentences
  list_item, // an outermost list item, nested lists and all: one claim
  heading,   // context for the claims under it
  code,      // a fenced or indented code block: goes with the claim before it
  html,      // a raw HTML block (a comment is no claim)
  table,     // one claim
  rule,      // a thematic break: nothing
};

// One block, located in the body by the text md4c reported inside it.
struct Block {
  BlockKind kind = BlockKind::paragraph;
  std::optional<Span> text;             // from the first to the last source byte of its text
  int level = 0;                        // heading: 1 to 6
  char fence = 0;                       // code: '`' or '~', 0 when indented
  char trailing_fence = 0;              // list item: the fence of a code block that ends it
  std::string heading;                  // heading: its text, inline markup dropped
  std::vector<Span> code_spans;         // paragraph: where inline code is (text offsets)
  std::vector<std::size_t> hard_breaks; // paragraph: offsets just before a hard line break
};

// The top-level blocks of `body` in source order. md4c accepts any text; a
// failure to allocate is thrown as std::bad_alloc, never swallowed.
[[nodiscard]] std::vector<Block> parse_blocks(std::string_view body);

} // namespace engram::claims
