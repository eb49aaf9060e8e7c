// Frontmatter edits: a key's lines are rewritten in place, keeping its
// spacing, quoting and trailing comment, and every edit is read back and
// undone unless the block still parses to the same other keys. Reading the
// block, and finding where each key's lines are, is frontmatter.cpp's job.
#include "base/error.hpp"
#include "store/frontmatter.hpp"
#include "store/plain_block.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace engram::store {
namespace {

std::string single_quoted(std::string_view value) {
  std::string out = "'";
  for (char c : value) {
    out += c;
    if (c == '\'') {
      out += '\'';
    }
  }
  return out + "'";
}

std::string double_quoted(std::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

bool needs_escapes(std::string_view value) {
  return std::any_of(value.begin(), value.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// Writes a scalar in the wanted style, falling back to a quoting that can hold it.
std::string render_scalar(std::string_view value, QuoteStyle style, bool in_flow) {
  if (style == QuoteStyle::plain && plain_safe(value, in_flow)) {
    return std::string(value);
  }
  if (style == QuoteStyle::double_ || needs_escapes(value)) {
    return double_quoted(value);
  }
  return single_quoted(value);
}

// The end of a quoted or plain scalar that starts at `pos` on a line ending at `end`.
std::size_t scalar_end(const std::string& text, std::size_t pos, std::size_t end) {
  if (pos >= end) {
    return end;
  }
  if (text[pos] == '\'') {
    for (std::size_t i = pos + 1; i < end; ++i) {
      if (text[i] == '\'') {
        if (i + 1 < end && text[i + 1] == '\'') {
          ++i;
        } else {
          return i + 1;
        }
      }
    }
    return end;
  }
  if (text[pos] == '"') {
    for (std::size_t i = pos + 1; i < end; ++i) {
      if (text[i] == '\\') {
        ++i;
      } else if (text[i] == '"') {
        return i + 1;
      }
    }
    return end;
  }
  if (text[pos] == '[') {
    const auto close = text.rfind(']', end);
    return close == std::string::npos || close < pos ? end : close + 1;
  }
  // A plain scalar runs to a " #" comment or the end of the line.
  for (std::size_t i = pos; i < end; ++i) {
    if (text[i] == '#' && i > pos && (text[i - 1] == ' ' || text[i - 1] == '\t')) {
      std::size_t j = i;
      while (j > pos && (text[j - 1] == ' ' || text[j - 1] == '\t')) {
        --j;
      }
      return j;
    }
  }
  std::size_t j = end;
  while (j > pos && (text[j - 1] == ' ' || text[j - 1] == '\t')) {
    --j;
  }
  return j;
}

} // namespace

void Frontmatter::require_editable() const {
  if (!m_editable) {
    throw Error("frontmatter written as a flow mapping cannot be edited in place");
  }
}

void Frontmatter::replace_span(std::string_view key, const std::string& lines) {
  const std::string before = m_text;
  const auto keys_before = keys();
  const auto* span = find(key);
  if (span == nullptr) {
    if (!m_text.empty() && m_text.back() != '\n') {
      m_text += m_eol;
    }
    m_text += lines;
  } else {
    m_text.replace(span->begin, span->end - span->begin, lines);
  }
  std::string failure;
  try {
    reparse();
    // Every other key must still be there, in order: a lenient parse of the
    // old text (say, an unclosed quote) must never let an edit swallow a key.
    std::vector<std::string> expected;
    for (const auto& k : keys_before) {
      if (k != key) {
        expected.push_back(k);
      }
    }
    std::vector<std::string> now;
    for (const auto& k : keys()) {
      if (k != key) {
        now.push_back(k);
      }
    }
    if (now != expected) {
      failure = "the other keys would change";
    }
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!failure.empty()) {
    m_text = before;
    reparse();
    throw Error("frontmatter key '{}' cannot be edited in place: {}", key, failure);
  }
}

void Frontmatter::verify_edit(std::string_view key, const std::string& before, bool ok) {
  if (!ok) {
    m_text = before;
    reparse();
    throw Error("frontmatter key '{}' cannot be edited in place: the new value does not read back",
                key);
  }
}

void Frontmatter::set_scalar(std::string_view key, std::string_view value) {
  require_editable();
  const std::string before = m_text;
  write_scalar(key, value);
  verify_edit(key, before, scalar(key) == value);
}

void Frontmatter::write_scalar(std::string_view key, std::string_view value) {
  const auto* span = find(key);
  if (span == nullptr) {
    replace_span(
        key, fmt::format("{}: {}{}", key, render_scalar(value, QuoteStyle::plain, false), m_eol));
    return;
  }
  const auto line_end = m_text.find_first_of("\r\n", span->begin);
  const std::size_t end = line_end == std::string::npos ? m_text.size() : line_end;
  const YAML::Node& root = tree();
  const YAML::Node node = root[std::string(key)];
  const auto pos = static_cast<std::size_t>(node.Mark().pos);
  std::string line;
  if (node.IsScalar() && !node.Mark().is_null() && pos > span->begin && pos < end &&
      m_text[pos] != '|' && m_text[pos] != '>') {
    // Keep everything around the value: the key as written, its spacing, a trailing comment.
    const std::size_t value_end = scalar_end(m_text, pos, end);
    line = m_text.substr(span->begin, pos - span->begin) +
           render_scalar(value, quote_style(key), false) +
           m_text.substr(value_end, end - value_end);
  } else {
    const auto colon = m_text.find(':', span->begin);
    line = m_text.substr(span->begin, colon - span->begin + 1) + " " +
           render_scalar(value, QuoteStyle::plain, false);
  }
  replace_span(key, line + m_eol);
}

void Frontmatter::set_list(std::string_view key, const std::vector<std::string>& values) {
  require_editable();
  const std::string before = m_text;
  write_list(key, values);
  verify_edit(key, before, list(key) == values);
}

void Frontmatter::write_list(std::string_view key, const std::vector<std::string>& values) {
  const auto* span = find(key);
  const YAML::Node& root = tree();
  const YAML::Node node = span == nullptr ? YAML::Node() : root[std::string(key)];

  // Items keep the quoting of the list's first quoted item.
  QuoteStyle style = QuoteStyle::plain;
  if (node.IsSequence()) {
    for (const auto& item : node) {
      const auto pos = static_cast<std::size_t>(item.Mark().pos);
      if (!item.Mark().is_null() && pos < m_text.size() &&
          (m_text[pos] == '"' || m_text[pos] == '\'')) {
        style = m_text[pos] == '"' ? QuoteStyle::double_ : QuoteStyle::single;
        break;
      }
    }
  }

  const bool block =
      node.IsSequence() && node.Style() == YAML::EmitterStyle::Block && !values.empty();
  if (block) {
    // Keep the key line as written and the items' indentation.
    const auto key_line_end = m_text.find('\n', span->begin);
    std::string out = m_text.substr(span->begin, key_line_end - span->begin + 1);
    const auto first = static_cast<std::size_t>(node.begin()->Mark().pos);
    const auto item_line = m_text.rfind('\n', first) + 1;
    const std::string prefix = m_text.substr(item_line, first - item_line);
    for (const auto& value : values) {
      out += prefix + render_scalar(value, style, false) + m_eol;
    }
    replace_span(key, out);
    return;
  }

  std::string flow = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    flow += (i == 0 ? "" : ", ") + render_scalar(values[i], style, true);
  }
  flow += "]";
  std::string line;
  if (span != nullptr && node.IsSequence() && !node.Mark().is_null() &&
      m_text.find('\n', span->begin) > static_cast<std::size_t>(node.Mark().pos)) {
    const auto pos = static_cast<std::size_t>(node.Mark().pos);
    const auto line_end = m_text.find_first_of("\r\n", span->begin);
    const std::size_t end = line_end == std::string::npos ? m_text.size() : line_end;
    const std::size_t value_end = scalar_end(m_text, pos, end);
    line = m_text.substr(span->begin, pos - span->begin) + flow +
           m_text.substr(value_end, end - value_end);
  } else if (span != nullptr) {
    const auto colon = m_text.find(':', span->begin);
    line = m_text.substr(span->begin, colon - span->begin + 1) + " " + flow;
  } else {
    line = fmt::format("{}: {}", key, flow);
  }
  replace_span(key, line + m_eol);
}

std::optional<std::string> Frontmatter::lines_of(std::string_view key) const {
  const auto* span = find(key);
  if (span == nullptr) {
    return std::nullopt;
  }
  return m_text.substr(span->begin, span->end - span->begin);
}

void Frontmatter::set_lines(std::string_view key, std::string_view lines) {
  require_editable();
  const std::string before = m_text;
  std::string text(lines);
  if (!text.empty() && !text.ends_with('\n')) {
    text += m_eol;
  }
  replace_span(key, text);
  verify_edit(key, before, has(key));
}

void Frontmatter::remove(std::string_view key) {
  require_editable();
  if (find(key) != nullptr) {
    replace_span(key, "");
  }
}

} // namespace engram::store
