// Claim splitting. The blocks md4c finds are turned into source ranges
// (pieces); a piece's text is always one contiguous range of the body, so a
// claim can be found again, replaced or removed by its bytes. A last pass
// turns any word no piece covers into a piece, because losing a claim is the
// one failure engram promises not to have.
#include "claims/split.hpp"

#include "claims/blocks.hpp"
#include "claims/classify.hpp"
#include "claims/list_marker.hpp"
#include "claims/sentence.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace engram::claims {
namespace detail {

// Whether `line` (container prefix skipped) starts with a list marker.
bool starts_with_list_marker(std::string_view line) {
  if (line.size() >= 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') &&
      is_space(line[1])) {
    return true;
  }
  std::size_t digits = 0;
  while (digits < line.size() && digits < 9 && line[digits] >= '0' && line[digits] <= '9') {
    ++digits;
  }
  return digits > 0 && digits + 1 < line.size() && (line[digits] == '.' || line[digits] == ')');
}

} // namespace detail

namespace {

// A claim being assembled: its source range, and what only a solution has.
struct Piece {
  Span span;             // the claim's source bytes
  bool solution = false; // a whole `## Solution:` section
  std::string title;     // the solution's slug
};

// The context in force from a heading on: headings outermost first.
struct ContextMark {
  std::size_t offset = 0; // where the heading starts
  std::string context;    // the context of claims after it
};

// An open `## Solution:` section.
struct OpenSolution {
  int level = 0;         // its heading level: a heading this level or higher ends it
  std::size_t begin = 0; // where its heading starts
  std::string title;     // the slug after `Solution:`
};

// Whether `line` (container prefix skipped) is a code fence of `fence` characters only.
bool is_fence_line(std::string_view line, char fence) {
  std::size_t run = 0;
  while (run < line.size() && line[run] == fence) {
    ++run;
  }
  if (run < 3) {
    return false;
  }
  return std::all_of(line.begin() + static_cast<long>(run), line.end(), is_space);
}

// Whether `line` (container prefix skipped) opens a code fence of `fence` characters.
bool is_opening_fence(std::string_view line, char fence) {
  return line.size() >= 3 && line[0] == fence && line[1] == fence && line[2] == fence;
}

// What a heading's text is after `Solution:`, or nullopt for other headings.
std::optional<std::string> solution_title(std::string_view heading) {
  constexpr std::string_view k_prefix = "solution:";
  while (!heading.empty() && is_space(heading.front())) {
    heading.remove_prefix(1);
  }
  if (heading.size() < k_prefix.size()) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < k_prefix.size(); ++i) {
    const char c = heading[i];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != k_prefix[i]) {
      return std::nullopt;
    }
  }
  heading.remove_prefix(k_prefix.size());
  while (!heading.empty() && is_space(heading.front())) {
    heading.remove_prefix(1);
  }
  while (!heading.empty() && is_space(heading.back())) {
    heading.remove_suffix(1);
  }
  if (heading.empty()) {
    return std::nullopt; // `## Solution:` names nothing: an ordinary heading
  }
  return std::string(heading);
}

// The splitter: walks the blocks once, keeping the heading stack and the
// pieces made so far.
class Splitter {
public:
  // Prepares to split `body`, under the headings `in_force` before it.
  Splitter(std::string_view body, HeadingStack in_force, KindMemo* memo, Kinds kinds)
      : m_body(body), m_lines(body), m_headings(std::move(in_force)), m_memo(memo), m_kinds(kinds) {
    for (const auto& [level, heading] : m_headings) {
      m_initial_context += m_initial_context.empty() ? heading : " > " + heading;
    }
  }

  // The headings in force at the end of the body (after run).
  const HeadingStack& headings() const { return m_headings; }

  // The claims of the body.
  std::vector<Claim> run() {
    for (const auto& block : parse_blocks(m_body)) {
      if (block.text) {
        take(block);
      }
    }
    close_solution(m_body.size());
    cover_leftovers();
    return claims();
  }

private:
  // The text of a line from `offset`, container prefix skipped, without its newline.
  std::string_view line_at(std::size_t offset) const {
    const auto begin = skip_prefix(m_body, m_lines.line_begin(offset), m_body.size());
    const auto end = m_lines.line_end(offset);
    return begin < end ? m_body.substr(begin, end - begin) : std::string_view{};
  }

  // The first line after the one holding `offset` that is not blank, if any.
  std::optional<std::size_t> next_nonblank_line(std::size_t offset) const {
    for (auto line = m_lines.next_line(offset); line < m_body.size();
         line = m_lines.next_line(line)) {
      if (!is_blank(m_body, {line, m_lines.line_end(line)})) {
        return line;
      }
      if (m_lines.line_end(line) >= m_body.size()) {
        break;
      }
    }
    return std::nullopt;
  }

  // The start of the first non-blank line above the one holding `offset`
  // that starts after `floor`, if any.
  std::optional<std::size_t> nonblank_line_above(std::size_t offset, std::size_t floor) const {
    auto line = m_lines.line_begin(offset);
    while (line > 0) {
      line = m_lines.line_begin(line - 1);
      if (line < floor) {
        break;
      }
      if (!is_blank(m_body, {line, m_lines.line_end(line)})) {
        return line;
      }
    }
    return std::nullopt;
  }

  // `end` extended over a closing `fence` line that follows it, if there is one.
  std::size_t past_closing_fence(std::size_t end, char fence) const {
    const auto line = next_nonblank_line(end);
    if (line && is_fence_line(line_at(*line), fence)) {
      return m_lines.line_end(*line);
    }
    return end;
  }

  // The source range of a block: whole lines from its first text (container
  // prefix skipped) to the end of its last text's line, widened over the
  // syntax that carries no text (a list marker on a line of its own, fences).
  Span region(const Block& block) const {
    const auto& text = *block.text;
    auto begin = skip_prefix(m_body, m_lines.line_begin(text.begin), text.begin);
    auto end = m_lines.line_end(text.end - 1);
    const auto floor = m_last_end;
    if (block.kind == BlockKind::list_item &&
        !detail::starts_with_list_marker(m_body.substr(begin))) {
      // An item that opens with a fence or a blank line has its marker on the
      // first non-blank line above its text.
      if (const auto line = nonblank_line_above(text.begin, floor)) {
        const auto marker = skip_prefix(m_body, *line, m_body.size());
        if (detail::starts_with_list_marker(m_body.substr(marker))) {
          begin = marker;
        }
      }
    }
    if (block.kind == BlockKind::list_item && block.trailing_fence != 0) {
      end = past_closing_fence(end, block.trailing_fence);
    } else if (block.kind == BlockKind::code && block.fence != 0) {
      // The opening fence is the first non-blank line above the code's text.
      if (const auto line = nonblank_line_above(text.begin, floor)) {
        const auto fence = skip_prefix(m_body, *line, m_body.size());
        if (is_opening_fence(m_body.substr(fence), block.fence)) {
          begin = fence;
        }
      }
      end = past_closing_fence(end, block.fence);
    }
    return trim_end(m_body, {begin, end});
  }

  // Takes one block into the pieces.
  void take(const Block& block) {
    const auto span = region(block);
    m_last_end = std::max(m_last_end, span.end);
    if (m_solution) {
      if (block.kind != BlockKind::heading || block.level > m_solution->level) {
        return;
      }
      close_solution(span.begin);
    }
    switch (block.kind) {
    case BlockKind::heading:
      take_heading(block, span);
      break;
    case BlockKind::paragraph:
      take_paragraph(block, span);
      break;
    case BlockKind::code:
      take_code(span);
      break;
    case BlockKind::html:
      if (is_comment_only(m_body.substr(span.begin, span.end - span.begin))) {
        m_covered.push_back(span);
      } else {
        m_pieces.push_back({span, false, {}});
      }
      break;
    case BlockKind::list_item:
    case BlockKind::table:
      m_pieces.push_back({span, false, {}});
      break;
    case BlockKind::rule:
      m_covered.push_back(span);
      break;
    }
  }

  // A heading: becomes context, or opens a solution section.
  void take_heading(const Block& block, Span span) {
    m_covered.push_back(span);
    while (!m_headings.empty() && m_headings.back().first >= block.level) {
      m_headings.pop_back();
    }
    std::string text = block.heading;
    while (!text.empty() && is_space(text.back())) {
      text.pop_back();
    }
    m_headings.emplace_back(block.level, text);
    std::string context;
    for (const auto& [level, heading] : m_headings) {
      context += context.empty() ? heading : " > " + heading;
    }
    m_contexts.push_back({span.begin, std::move(context)});
    if (auto title = solution_title(block.heading)) {
      m_solution = OpenSolution{block.level, span.begin, std::move(*title)};
    }
  }

  // A paragraph: one piece per sentence.
  void take_paragraph(const Block& block, Span span) {
    const auto paragraph = m_body.substr(span.begin, span.end - span.begin);
    std::vector<Span> code_spans;
    for (const auto& code : block.code_spans) {
      if (code.begin >= span.begin && code.end <= span.end) {
        code_spans.push_back({code.begin - span.begin, code.end - span.begin});
      }
    }
    std::vector<std::size_t> hard_breaks;
    for (const auto offset : block.hard_breaks) {
      if (offset >= span.begin && offset <= span.end) {
        hard_breaks.push_back(offset - span.begin);
      }
    }
    for (const auto& sentence : split_sentences(paragraph, code_spans, hard_breaks)) {
      m_pieces.push_back({{span.begin + sentence.begin, span.begin + sentence.end}, false, {}});
    }
  }

  // A code block: joins the piece right before it, or stands alone.
  void take_code(Span span) {
    if (!m_pieces.empty() && !m_pieces.back().solution) {
      auto& previous = m_pieces.back().span;
      if (previous.end <= span.begin && is_blank(m_body, {previous.end, span.begin})) {
        previous.end = span.end;
        return;
      }
    }
    m_pieces.push_back({span, false, {}});
  }

  // Closes an open solution section at `end` (where the next heading starts).
  void close_solution(std::size_t end) {
    if (!m_solution) {
      return;
    }
    const auto span = trim_end(m_body, {m_solution->begin, std::min(end, m_body.size())});
    m_pieces.push_back({span, true, std::move(m_solution->title)});
    m_solution.reset();
  }

  // Whether an HTML block is nothing but comments.
  static bool is_comment_only(std::string_view html) {
    while (true) {
      while (!html.empty() && is_space(html.front())) {
        html.remove_prefix(1);
      }
      if (html.empty()) {
        return true;
      }
      if (!html.starts_with("<!--")) {
        return false;
      }
      const auto close = html.find("-->", 4);
      if (close == std::string_view::npos) {
        return true; // an unclosed comment runs to the end of its block
      }
      html.remove_prefix(close + 3);
    }
  }

  // Turns each stretch of the body that nothing covers and that holds a
  // letter or digit (a link reference definition, say) into a piece.
  void cover_leftovers() {
    std::vector<Span> covered = m_covered;
    for (const auto& piece : m_pieces) {
      covered.push_back(piece.span);
    }
    std::sort(covered.begin(), covered.end(),
              [](const Span& a, const Span& b) { return a.begin < b.begin; });
    std::vector<Span> gaps;
    std::size_t cursor = 0;
    for (const auto& span : covered) {
      if (span.begin > cursor) {
        gaps.push_back({cursor, span.begin});
      }
      cursor = std::max(cursor, span.end);
    }
    gaps.push_back({cursor, m_body.size()});
    for (const auto& gap : gaps) {
      // Lines without a word (a setext underline, a rule, a lone fence) are
      // trimmed from both ends; what remains, if anything, is kept.
      std::optional<Span> kept;
      for (auto line = gap.begin; line < gap.end; line = m_lines.next_line(line)) {
        const Span part{std::max(line, gap.begin), std::min(m_lines.line_end(line), gap.end)};
        if (has_word(m_body.substr(part.begin, part.end - part.begin))) {
          const auto begin = skip_prefix(m_body, part.begin, part.end);
          kept = kept ? Span{kept->begin, part.end} : Span{begin, part.end};
        }
        if (m_lines.line_end(line) >= m_body.size()) {
          break;
        }
      }
      if (kept) {
        m_pieces.push_back({trim_end(m_body, *kept), false, {}});
      }
    }
  }

  // Whether text holds a letter or digit (any non-ASCII byte counts as a letter).
  static bool has_word(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
      const auto u = static_cast<unsigned char>(c);
      return u >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
    });
  }

  // The context at `offset`: that of the last heading starting before it.
  std::string context_at(std::size_t offset) const {
    std::string context = m_initial_context;
    for (const auto& mark : m_contexts) {
      if (mark.offset >= offset) {
        break;
      }
      context = mark.context;
    }
    return context;
  }

  // The pieces as claims, in source order.
  std::vector<Claim> claims() {
    std::sort(m_pieces.begin(), m_pieces.end(),
              [](const Piece& a, const Piece& b) { return a.span.begin < b.span.begin; });
    std::vector<Claim> out;
    out.reserve(m_pieces.size());
    for (auto& piece : m_pieces) {
      Claim claim;
      claim.text = std::string(m_body.substr(piece.span.begin, piece.span.end - piece.span.begin));
      claim.context = context_at(piece.span.begin);
      claim.title = std::move(piece.title);
      claim.kind = piece.solution                     ? ClaimKind::solution
                   : m_kinds == Kinds::solutions_only ? ClaimKind::factual
                   : m_memo != nullptr                ? m_memo->classify(claim.text)
                                                      : classify(claim.text);
      claim.line = m_lines.line_of(piece.span.begin);
      out.push_back(std::move(claim));
    }
    return out;
  }

  std::string_view m_body;                // the body being split
  LineIndex m_lines;                      // its lines
  std::vector<Piece> m_pieces;            // claims so far
  std::vector<Span> m_covered;            // headings, comments, rules: not claims, not lost
  HeadingStack m_headings;                // the heading stack: level, text
  std::vector<ContextMark> m_contexts;    // context changes, in source order
  std::optional<OpenSolution> m_solution; // the section being read, if any
  std::size_t m_last_end = 0;             // where the last block taken ends
  KindMemo* m_memo = nullptr;             // classifies claims, when given
  Kinds m_kinds = Kinds::all;             // which claims get their kind
  std::string m_initial_context;          // the context before the first heading
};

} // namespace

std::vector<Claim> split_whole(std::string_view body, KindMemo* memo) {
  return Splitter(body, {}, memo, Kinds::all).run();
}

std::vector<Claim> split_claims(std::string_view body, KindMemo* memo) {
  const auto starts = section_starts(body);
  if (starts.size() == 1) {
    return split_whole(body, memo);
  }
  std::vector<Claim> out;
  HeadingStack headings;
  int line = 1;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const auto begin = starts[k];
    const auto end = k + 1 < starts.size() ? starts[k + 1] : body.size();
    if (k > 0) {
      line += static_cast<int>(std::count(body.begin() + static_cast<long>(starts[k - 1]),
                                          body.begin() + static_cast<long>(begin), '\n'));
    }
    HeadingStack after;
    for (auto& claim : split_section(body.substr(begin, end - begin), headings, &after, memo)) {
      claim.line += line - 1;
      out.push_back(std::move(claim));
    }
    headings = std::move(after);
  }
  return out;
}

std::vector<Claim> split_section(std::string_view section, const HeadingStack& in,
                                 HeadingStack* out, KindMemo* memo, Kinds kinds) {
  Splitter splitter(section, in, memo, kinds);
  auto claims = splitter.run();
  if (out != nullptr) {
    *out = splitter.headings();
  }
  return claims;
}

} // namespace engram::claims
