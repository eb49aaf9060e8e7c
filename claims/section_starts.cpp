// Where a body can be cut into sections that split on their own, found by a
// line scan instead of md4c: cutting a long body keeps each edit's re-split
// to the sections it touched. The scan is conservative, cutting less or not
// at all wherever a block's reach is md4c's to judge.
#include "claims/list_marker.hpp"
#include "claims/source.hpp"
#include "claims/split.hpp"

#include <algorithm>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace engram::claims {
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
    if (detail::starts_with_list_marker(text)) {
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
    if (m_comment) {
      return in_comment(text);
    }
    if (const auto content = skip_containers(text); content.starts_with('<')) {
      if (!content.starts_with("<!--")) {
        return Step::blocked; // an HTML block can run past a heading line
      }
      const auto close = content.find("-->");
      if (close < 4) {
        return Step::blocked; // `<!-->`: where md4c ends it is its to judge
      }
      if (close == std::string_view::npos) {
        m_comment = true; // a comment over several lines: no cut until it closes
        return Step::line;
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
  // Reads a line inside an HTML comment that an earlier line opened. It ends
  // at the first line holding `-->`, as md4c's comment block does; no cut
  // falls inside it. Should md4c end it sooner (a container closing under
  // it), the lines it then reads as Markdown keep the scan's guards: a fence
  // or HTML block stops all cutting, a possible solution heading or setext
  // underline holds back the cuts after it.
  Step in_comment(std::string_view text) {
    if (text.find("-->") != std::string_view::npos) {
      m_comment = false;
    } else if (skip_containers(text).starts_with('<') || is_equals_line(text)) {
      return Step::blocked;
    }
    const bool blank = std::all_of(text.begin(), text.end(), is_space);
    m_table_possible = !blank && (m_table_possible || text.find('|') != std::string_view::npos);
    if (skip_containers(text).starts_with('#') && mentions_solution(text)) {
      open_solution(1);
    }
    if (is_dash_line(text)) {
      open_solution(2);
    }
    return Step::line;
  }

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

  bool m_comment = false;        // an HTML comment over several lines is open
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
