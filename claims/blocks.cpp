// The block walk. md4c reports blocks through enter/leave callbacks without
// offsets, but the text it reports points into the source, so each block is
// located by the first and last source byte of its text. Text that md4c makes
// up (soft breaks, NUL replacements, indentation of code) points elsewhere
// and is ignored.
#include "claims/blocks.hpp"

#include <exception>
#include <md4c.h>
#include <new>

namespace engram::claims {
namespace {

// The state of one walk: the blocks so far and the one being filled.
class Walk {
public:
  // Prepares a walk over `body`.
  explicit Walk(std::string_view body) : m_body(body) {}

  // The blocks found, in order; rethrows what a callback threw.
  std::vector<Block> take() {
    if (m_error) {
      std::rethrow_exception(m_error);
    }
    return std::move(m_blocks);
  }

  // Keeps an exception thrown inside a callback, to rethrow from `take`.
  void fail(std::exception_ptr error) { m_error = std::move(error); }

  // md4c: a block begins.
  int enter_block(MD_BLOCKTYPE type, const void* detail) {
    ++m_depth;
    if (m_current) {
      // Nested in a block that is already a unit: only remember a trailing code fence.
      if (type == MD_BLOCK_CODE) {
        m_nested_fence = static_cast<const MD_BLOCK_CODE_DETAIL*>(detail)->fence_char;
      }
      return 0;
    }
    const auto kind = unit_kind(type);
    if (!kind) {
      return 0;
    }
    m_current = Block{};
    m_current->kind = *kind;
    m_unit_depth = m_depth;
    if (type == MD_BLOCK_H) {
      m_current->level = static_cast<int>(static_cast<const MD_BLOCK_H_DETAIL*>(detail)->level);
    } else if (type == MD_BLOCK_CODE) {
      m_current->fence =
          static_cast<char>(static_cast<const MD_BLOCK_CODE_DETAIL*>(detail)->fence_char);
    }
    return 0;
  }

  // md4c: a block ends.
  int leave_block(MD_BLOCKTYPE type) {
    if (m_current && m_depth == m_unit_depth) {
      m_blocks.push_back(std::move(*m_current));
      m_current.reset();
    } else if (m_current && type == MD_BLOCK_CODE && m_nested_fence != 0) {
      m_current->trailing_fence = static_cast<char>(m_nested_fence);
    }
    --m_depth;
    return 0;
  }

  // md4c: an inline span begins; inline code matters to sentence splitting.
  int enter_span(MD_SPANTYPE type) {
    if (type == MD_SPAN_CODE) {
      m_code_span.reset();
      m_in_code_span = true;
    }
    return 0;
  }

  // md4c: an inline span ends.
  int leave_span(MD_SPANTYPE type) {
    if (type == MD_SPAN_CODE) {
      m_in_code_span = false;
      if (m_current && m_code_span) {
        m_current->code_spans.push_back(*m_code_span);
      }
    }
    return 0;
  }

  // md4c: text inside the current block.
  int text(MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size) {
    if (!m_current) {
      return 0;
    }
    auto& block = *m_current;
    if (block.kind == BlockKind::heading) {
      block.heading.append(
          type == MD_TEXT_SOFTBR || type == MD_TEXT_BR ? " " : std::string_view(text, size));
    }
    if (type == MD_TEXT_BR && block.text) {
      block.hard_breaks.push_back(block.text->end);
    }
    const auto offset = source_offset(text);
    if (!offset || size == 0) {
      return 0;
    }
    const Span span{*offset, *offset + size};
    if (!block.text) {
      block.text = span;
    } else {
      block.text->end = std::max(block.text->end, span.end);
    }
    if (m_in_code_span) {
      m_code_span = m_code_span ? Span{m_code_span->begin, span.end} : span;
    }
    // Text after a nested code block means the block does not end with its fence.
    if (type != MD_TEXT_CODE) {
      m_nested_fence = 0;
      block.trailing_fence = 0;
    }
    return 0;
  }

private:
  // The unit a top-level block type becomes, or nullopt for containers.
  static std::optional<BlockKind> unit_kind(MD_BLOCKTYPE type) {
    switch (type) {
    case MD_BLOCK_P:
      return BlockKind::paragraph;
    case MD_BLOCK_LI:
      return BlockKind::list_item;
    case MD_BLOCK_H:
      return BlockKind::heading;
    case MD_BLOCK_CODE:
      return BlockKind::code;
    case MD_BLOCK_HTML:
      return BlockKind::html;
    case MD_BLOCK_TABLE:
      return BlockKind::table;
    case MD_BLOCK_HR:
      return BlockKind::rule;
    default:
      return std::nullopt;
    }
  }

  // The offset of `text` in the body, or nullopt when md4c made the text up.
  std::optional<std::size_t> source_offset(const MD_CHAR* text) const {
    const auto* begin = m_body.data();
    if (text < begin || text >= begin + m_body.size()) {
      return std::nullopt;
    }
    return static_cast<std::size_t>(text - begin);
  }

  std::string_view m_body;         // the walked body
  std::vector<Block> m_blocks;     // finished blocks
  std::optional<Block> m_current;  // the unit being filled
  int m_depth = 0;                 // nesting depth of the walk
  int m_unit_depth = 0;            // depth at which the current unit was entered
  bool m_in_code_span = false;     // inside inline code
  std::optional<Span> m_code_span; // the inline code being read
  MD_CHAR m_nested_fence = 0;      // fence of the last nested code block, 0 once text follows
  std::exception_ptr m_error;      // what a callback threw, if anything
};

// Runs one callback of the walk in `userdata`. md4c is C: an exception must
// not unwind through it, so it is kept and the parse aborted (non-zero).
template <typename Call> int guarded(void* userdata, Call call) {
  auto* walk = static_cast<Walk*>(userdata);
  try {
    return call(*walk);
  } catch (...) {
    walk->fail(std::current_exception());
    return 1;
  }
}

// md4c: a block begins.
int on_enter_block(MD_BLOCKTYPE type, void* detail, void* userdata) {
  return guarded(userdata, [&](Walk& walk) { return walk.enter_block(type, detail); });
}

// md4c: a block ends.
int on_leave_block(MD_BLOCKTYPE type, void* /*detail*/, void* userdata) {
  return guarded(userdata, [&](Walk& walk) { return walk.leave_block(type); });
}

// md4c: an inline span begins.
int on_enter_span(MD_SPANTYPE type, void* /*detail*/, void* userdata) {
  return guarded(userdata, [&](Walk& walk) { return walk.enter_span(type); });
}

// md4c: an inline span ends.
int on_leave_span(MD_SPANTYPE type, void* /*detail*/, void* userdata) {
  return guarded(userdata, [&](Walk& walk) { return walk.leave_span(type); });
}

// md4c: text.
int on_text(MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* userdata) {
  return guarded(userdata, [&](Walk& walk) { return walk.text(type, text, size); });
}

} // namespace

std::vector<Block> parse_blocks(std::string_view body) {
  Walk walk(body);
  MD_PARSER parser{};
  // GitHub's dialect without autolinks: URLs stay plain text, which is all we need.
  parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS;
  parser.enter_block = on_enter_block;
  parser.leave_block = on_leave_block;
  parser.enter_span = on_enter_span;
  parser.leave_span = on_leave_span;
  parser.text = on_text;
  const int result = md_parse(body.data(), static_cast<MD_SIZE>(body.size()), &parser, &walk);
  auto blocks = walk.take();
  if (result < 0) {
    throw std::bad_alloc(); // md4c's only own failure is running out of memory
  }
  return blocks;
}

} // namespace engram::claims
