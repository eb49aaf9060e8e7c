// Line arithmetic over a Markdown body. Lines end at '\n' or a lone '\r'; the
// '\r' of CR LF is whitespace at the end of its line, so trimming removes it.
#include "claims/source.hpp"

#include <algorithm>

namespace engram::claims {

LineIndex::LineIndex(std::string_view text) : m_text(text) {
  m_line_begins.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    // CommonMark ends lines at LF, CR LF and a lone CR; md4c does too.
    const bool lone_cr = text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n');
    if (text[i] == '\n' || lone_cr) {
      m_line_begins.push_back(i + 1);
    }
  }
}

int LineIndex::line_of(std::size_t offset) const {
  const auto it = std::upper_bound(m_line_begins.begin(), m_line_begins.end(), offset);
  return static_cast<int>(it - m_line_begins.begin());
}

std::size_t LineIndex::line_begin(std::size_t offset) const {
  return m_line_begins[static_cast<std::size_t>(line_of(offset) - 1)];
}

std::size_t LineIndex::line_end(std::size_t offset) const {
  const auto line = static_cast<std::size_t>(line_of(offset));
  return line < m_line_begins.size() ? m_line_begins[line] - 1 : m_text.size();
}

std::size_t LineIndex::next_line(std::size_t offset) const {
  const auto line = static_cast<std::size_t>(line_of(offset));
  return line < m_line_begins.size() ? m_line_begins[line] : m_text.size();
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::size_t skip_prefix(std::string_view text, std::size_t offset, std::size_t limit) {
  limit = std::min(limit, text.size());
  while (offset < limit && (text[offset] == ' ' || text[offset] == '\t' || text[offset] == '>')) {
    ++offset;
  }
  return offset;
}

bool is_blank(std::string_view text, Span span) {
  for (std::size_t i = span.begin; i < span.end && i < text.size(); ++i) {
    if (!is_space(text[i]) && text[i] != '>') {
      return false;
    }
  }
  return true;
}

Span trim_end(std::string_view text, Span span) {
  while (span.end > span.begin && is_space(text[span.end - 1])) {
    --span.end;
  }
  return span;
}

} // namespace engram::claims
