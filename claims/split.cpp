// Claim splitting. The blocks md4c finds are turned into source ranges
// (pieces); a piece's text is always one contiguous range of the body, so a
// claim can be found again, replaced or removed by its bytes. A last pass
// turns any word no piece covers into a piece, because losing a claim is the
// one failure engram promises not to have.
#include "claims/split.hpp"

#include "claims/blocks.hpp"
#include "claims/classify.hpp"
#include "claims/sentence.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace engram::claims {
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
    if (block.kind == BlockKind::list_item && !starts_with_list_marker(m_body.substr(begin))) {
      // An item that opens with a fence or a blank line has its marker on the
      // first non-blank line above its text.
      if (const auto line = nonblank_line_above(text.begin, floor)) {
        const auto marker = skip_prefix(m_body, *line, m_body.size());
        if (starts_with_list_marker(m_body.substr(marker))) {
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

namespace {

// `text` without leading spaces and tabs.
std::string_view skip_indent(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  return text;
}

// `text` without its container syntax: indentation, block-quote markers and list markers.
std::string_view skip_containers(std::string_view text) {
  while (true) {
    text = skip_indent(text);
    if (!text.empty() && text.front() == '>') {
      text.remove_prefix(1);
      continue;
    }
    if (starts_with_list_marker(text)) {
      std::size_t marker = 0;
      while (marker < text.size() && !is_space(text[marker])) {
        ++marker;
      }
      text.remove_prefix(marker);
      continue;
    }
    return text;
  }
}

// The level of an ATX heading line at column 0 (1 to 6); 0 otherwise.
int heading_level(std::string_view line) {
  std::size_t hashes = 0;
  while (hashes < line.size() && line[hashes] == '#') {
    ++hashes;
  }
  if (hashes == 0 || hashes > 6) {
    return 0;
  }
  return hashes == line.size() || line[hashes] == ' ' || line[hashes] == '\t'
             ? static_cast<int>(hashes)
             : 0;
}

// Whether `line` holds "olution" in any case: could name a `Solution:` heading.
bool mentions_solution(std::string_view line) {
  constexpr std::string_view k_word = "olution";
  for (std::size_t i = 0; i + k_word.size() <= line.size(); ++i) {
    bool match = true;
    for (std::size_t j = 0; j < k_word.size() && match; ++j) {
      const char c = line[i + j];
      match = (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) == k_word[j];
    }
    if (match) {
      return true;
    }
  }
  return false;
}

// Whether a line is a setext level-1 underline (`===`).
bool is_equals_line(std::string_view line) {
  line = skip_indent(line);
  while (!line.empty() && is_space(line.back())) {
    line.remove_suffix(1);
  }
  return !line.empty() && std::all_of(line.begin(), line.end(), [](char c) { return c == '='; });
}

// The line of `body` starting at `begin`, without its line break, and where the next starts.
std::pair<std::string_view, std::size_t> line_at(std::string_view body, std::size_t begin) {
  const auto nl = body.find('\n', begin);
  const auto end = nl == std::string_view::npos ? body.size() : nl;
  auto text = body.substr(begin, end - begin);
  if (!text.empty() && text.back() == '\r') {
    text.remove_suffix(1);
  }
  return {text, nl == std::string_view::npos ? body.size() : nl + 1};
}

// Whether any line of `body` from `begin` (a line start) to `end` could be a
// link reference definition, or any CR in that range is a lone one (a line
// break md4c sees and this scan does not): either stops all cutting.
bool has_global_blocker(std::string_view body, std::size_t begin, std::size_t end) {
  for (auto at = body.find('\r', begin); at != std::string_view::npos && at < end;
       at = body.find('\r', at + 1)) {
    if (at + 1 == body.size() || body[at + 1] != '\n') {
      return true;
    }
  }
  for (std::size_t pos = begin; pos < end && pos < body.size();) {
    const auto [text, next] = line_at(body, pos);
    const auto content = skip_containers(text);
    if (content.starts_with('[') && content.find("]:") != std::string_view::npos) {
      return true;
    }
    pos = next;
  }
  return false;
}

// The line scan of section_starts. At a cut, its state is always the initial
// one (no fence, no table, no solution section that the cut's own heading
// line does not close), so a scan can resume from any cut.
class SectionScan {
public:
  // What the scan did with one line.
  enum class Step { cut, line, blocked };

  // Reads the line at `begin`; a cut means a section starts there.
  Step step(std::string_view text, std::size_t begin) {
    if (m_fence != 0) {
      return in_fence(text);
    }
    if (text.starts_with("```") || text.starts_with("~~~")) {
      return open_fence(text);
    }
    if (text.find("```") != std::string_view::npos || text.find("~~~") != std::string_view::npos) {
      return Step::blocked; // a fence inside a container, or inline: its reach is md4c's to judge
    }
    if (const auto content = skip_containers(text); content.starts_with('<')) {
      const auto close = content.find("-->");
      if (!content.starts_with("<!--") || close == std::string_view::npos || close < 4) {
        return Step::blocked; // an HTML block can run past a heading line
      }
    }
    if (is_equals_line(text)) {
      return Step::blocked; // a setext level-1 heading: could open a level-1 solution unseen
    }
    if (std::all_of(text.begin(), text.end(), is_space)) {
      m_table_possible = false; // a blank line ends any table
      return Step::line;
    }
    m_table_possible = m_table_possible || text.find('|') != std::string_view::npos;
    if (const int level = heading_level(text); level != 0) {
      return at_heading(text, level, begin);
    }
    if (skip_containers(text).starts_with('#') && mentions_solution(text)) {
      open_solution(1); // an indented or quoted heading: take it as the widest solution
    }
    if (is_dash_line(text)) {
      open_solution(2); // a setext underline (or a rule): its paragraph may have been a solution
      return Step::line;
    }
    // A bullet at column 0 starts a top-level list item, one claim of its
    // own; cut there when the item surely has text the splitter takes.
    const bool bullet = is_plain_bullet(text);
    return bullet && m_solution == 0 && !m_table_possible && begin != 0 ? Step::cut : Step::line;
  }

private:
  // Reads a line inside a fence.
  Step in_fence(std::string_view text) {
    // Inside a fence only a closing fence at column 0 is followed; any
    // other fence-like line could close it where this scan cannot tell.
    std::size_t run = 0;
    while (run < text.size() && text[run] == m_fence) {
      ++run;
    }
    if (run >= m_fence_run &&
        std::all_of(text.begin() + static_cast<long>(run), text.end(), is_space)) {
      m_fence = 0;
      return Step::line;
    }
    const auto indented = skip_indent(text);
    if (indented.size() != text.size() &&
        (indented.starts_with("```") || indented.starts_with("~~~"))) {
      return Step::blocked;
    }
    return Step::line;
  }

  // Reads a line that starts with a fence's three backticks or tildes.
  Step open_fence(std::string_view text) {
    if (m_table_possible) {
      return Step::blocked; // under a table row it may be a row: its reach is md4c's to judge
    }
    const char c = text[0];
    std::size_t run = 0;
    while (run < text.size() && text[run] == c) {
      ++run;
    }
    if (c == '`' && text.find('`', run) != std::string_view::npos) {
      return Step::blocked; // not a fence but inline code: leave it to md4c
    }
    m_fence = c;
    m_fence_run = run;
    return Step::line;
  }

  // Reads an ATX heading line of `level` at `begin`.
  Step at_heading(std::string_view text, int level, std::size_t begin) {
    // A heading closes the solution sections of its level and below; a
    // section is cut only at a level-1 or level-2 heading. Both only when
    // the splitter surely takes the heading: one without text is skipped.
    if (m_table_possible || !starts_with_plain_text(text.substr(static_cast<std::size_t>(level)))) {
      // Under a table row it may be a row; without plain text, skipped.
      if (mentions_solution(text)) {
        open_solution(level);
      }
      return Step::line;
    }
    const bool cut = level <= 2 && (m_solution == 0 || level <= m_solution);
    if (m_solution != 0 && level <= m_solution) {
      m_solution = 0;
    }
    if (mentions_solution(text)) {
      open_solution(level);
    }
    return cut && begin != 0 ? Step::cut : Step::line;
  }

  // Whether a line is a bullet at column 0 (a task box skipped) whose item
  // surely has text the splitter takes.
  static bool is_plain_bullet(std::string_view text) {
    std::string_view item = text.size() >= 2 &&
                                    (text[0] == '-' || text[0] == '*' || text[0] == '+') &&
                                    (text[1] == ' ' || text[1] == '\t')
                                ? skip_indent(text.substr(2))
                                : std::string_view{};
    if (item.size() >= 4 && item[0] == '[' &&
        (item[1] == ' ' || item[1] == 'x' || item[1] == 'X') && item[2] == ']' && item[3] == ' ') {
      item.remove_prefix(4); // a task box
    }
    return !item.empty() && starts_with_plain_text(item);
  }

  // Notes a solution section of `level` may be open (the widest one wins).
  void open_solution(int level) {
    m_solution = m_solution == 0 ? level : std::min(m_solution, level);
  }

  // Whether a line is nothing but dashes, stars or underscores (and spaces):
  // a setext underline or a thematic break, never a list item.
  static bool is_dash_line(std::string_view line) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
      return false;
    }
    const char c = line[first];
    return (c == '-' || c == '*' || c == '_') && std::all_of(line.begin(), line.end(), [c](char x) {
             return x == c || x == ' ' || x == '\t';
           });
  }

  // Whether `text` (spaces skipped) starts with a letter, a digit or a
  // non-ASCII character: plain text that md4c reports, whatever follows,
  // as no link, image, code span, HTML, entity or escape starts so.
  static bool starts_with_plain_text(std::string_view text) {
    text = skip_indent(text);
    if (text.empty()) {
      return false;
    }
    const auto c = static_cast<unsigned char>(text.front());
    return c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  }

  char m_fence = 0;              // the open column-0 fence's character, 0 when none is open
  std::size_t m_fence_run = 0;   // and its length
  int m_solution = 0;            // the level of a `Solution:` section that may be open; 0: none
  bool m_table_possible = false; // a line with '|' since the last blank line: a table may run on
};

// Scans `body` from `begin` (0 or a cut) and appends the cuts found to `starts`.
void scan_sections(std::string_view body, std::size_t begin, std::vector<std::size_t>& starts) {
  SectionScan scan;
  for (std::size_t pos = begin; pos < body.size();) {
    const auto [text, next] = line_at(body, pos);
    switch (scan.step(text, pos)) {
    case SectionScan::Step::cut:
      starts.push_back(pos);
      break;
    case SectionScan::Step::line:
      break;
    case SectionScan::Step::blocked:
      return;
    }
    pos = next;
  }
}

} // namespace

std::vector<std::size_t> section_starts(std::string_view body) {
  std::vector<std::size_t> starts{0};
  if (!has_global_blocker(body, 0, body.size())) {
    scan_sections(body, 0, starts);
  }
  return starts;
}

std::vector<std::size_t> EditedStarts::all(std::span<const std::size_t> old_starts) const {
  std::vector<std::size_t> out;
  out.reserve(size(old_starts));
  for (std::size_t k = 0; k < size(old_starts); ++k) {
    out.push_back(at(old_starts, k));
  }
  return out;
}

EditedStarts section_starts_after_edit(std::string_view body, std::string_view old_body,
                                       std::span<const std::size_t> old_starts, std::size_t prefix,
                                       std::size_t suffix) {
  EditedStarts out;
  out.tail = old_starts.size();
  if (old_starts.size() < 2 || prefix + suffix > std::min(body.size(), old_body.size())) {
    out.found = section_starts(body); // nothing to keep (or no cut scan ran on the old body)
    return out;
  }
  // The old body had no global blocker; the new one has one only in the lines the edit touched.
  const auto newline = prefix == 0 ? std::string_view::npos : body.rfind('\n', prefix - 1);
  const auto edit_begin = newline == std::string_view::npos ? 0 : newline + 1;
  const auto edit_end = std::min(body.size(), body.size() - suffix + 1);
  if (has_global_blocker(body, edit_begin, edit_end)) {
    out.found = {0};
    return out;
  }
  // Cuts whose heading line ends before the edit stand, and the scan resumes
  // at the last of them. Those lines end in increasing order: the first that
  // does not end before the edit is found by bisection, not by walking the
  // thousands of cuts of a long body.
  const auto standing =
      std::partition_point(old_starts.begin() + 1, old_starts.end(), [&](std::size_t start) {
        const auto nl = old_body.find('\n', start);
        return nl != std::string_view::npos && nl < prefix;
      });
  out.kept = static_cast<std::size_t>(standing - old_starts.begin());
  const auto resume = old_starts[out.kept - 1]; // scanned again: the scan's state starts there
  // Past the edit, a cut that was a cut of the old body (moved) means the rest is as before.
  const auto delta =
      static_cast<std::ptrdiff_t>(body.size()) - static_cast<std::ptrdiff_t>(old_body.size());
  const auto unchanged_from = body.size() - suffix;
  SectionScan scan;
  for (std::size_t pos = resume; pos < body.size();) {
    const auto [text, next] = line_at(body, pos);
    const auto step = scan.step(text, pos);
    if (step == SectionScan::Step::blocked) {
      break;
    }
    if (step == SectionScan::Step::cut && pos != resume) {
      if (pos > unchanged_from) {
        const auto old_pos = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(pos) - delta);
        const auto it = std::lower_bound(old_starts.begin(), old_starts.end(), old_pos);
        if (it != old_starts.end() && *it == old_pos) {
          out.tail = static_cast<std::size_t>(it - old_starts.begin());
          out.moved = delta;
          return out;
        }
      }
      out.found.push_back(pos);
    }
    pos = next;
  }
  return out;
}

} // namespace engram::claims
