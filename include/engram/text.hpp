// Text helpers for rules: lines, code points, Markdown list items. Part of the
// plugin SDK; header-only so plugins link nothing.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace engram::text {

// The number of code points in UTF-8 text (what guards call "chars").
inline std::size_t count_chars(std::string_view utf8) {
  std::size_t n = 0;
  for (char c : utf8) {
    n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  }
  return n;
}

// Splits text into lines, each keeping its ending ("\n", "\r\n" or none at the end).
inline std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    const std::size_t next = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.emplace_back(text.substr(pos, next - pos));
    pos = next;
  }
  return lines;
}

// A line without its ending.
inline std::string_view without_eol(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
    line.remove_suffix(1);
  }
  return line;
}

// True for a line that starts a top-level list item (`- `, `* `, `+ `, `1. `).
inline bool starts_list_item(std::string_view line) {
  if (line.size() >= 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') &&
      (line[1] == ' ' || line[1] == '\t')) {
    return true;
  }
  std::size_t i = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') {
    ++i;
  }
  return i > 0 && i + 1 < line.size() && (line[i] == '.' || line[i] == ')') && line[i + 1] == ' ';
}

// True for a Markdown ATX heading line.
inline bool is_heading(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && line[i] == '#') {
    ++i;
  }
  return i > 0 && i <= 6 && (i == line.size() || line[i] == ' ' || line[i] == '\t');
}

// True for a line with nothing but whitespace.
inline bool is_blank(std::string_view line) {
  return without_eol(line).find_first_not_of(" \t") == std::string_view::npos;
}

} // namespace engram::text
