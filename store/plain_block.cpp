// PlainBlock. Each line is recognised whole or the block is refused; the
// subset is kept small enough that every accepted line has one reading in
// YAML 1.2 and in yaml-cpp (tests/unit/store_plain_block_test.cpp compares
// the two on generated blocks).
#include "store/plain_block.hpp"

#include "base/utf8.hpp"

#include <algorithm>

namespace engram::store {
namespace {

// Scalars YAML reads as null, not as a string.
bool is_null_word(std::string_view value) {
  return value == "~" || value == "null" || value == "Null" || value == "NULL";
}

// Whether a key is a word yaml-cpp reads as that string: letters, digits, `-`, `_`.
bool plain_key(std::string_view key) {
  constexpr std::size_t k_longest = 128; // far below yaml-cpp's limit on implicit keys
  if (key.empty() || key.size() > k_longest || key.front() == '-' || is_null_word(key)) {
    return false;
  }
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_';
  });
}

// `text` without the spaces at its ends.
std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

// Bytes a YAML reader may treat as more than text: a tab (indentation and
// separation rules differ), a carriage return or any other control byte, a byte-order mark, and the
// line and paragraph separators YAML 1.1 breaks lines at; and bytes that are
// not UTF-8, which a reader may replace.
bool has_special_bytes(std::string_view text) {
  // Control bytes too, comments included: yaml-cpp ends its input at a NUL.
  bool ascii = true;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n') || byte == 0x7f) {
      return true;
    }
    ascii = ascii && byte < 0x80;
  }
  if (ascii) {
    return false;
  }
  if (first_invalid_utf8(text)) {
    return true;
  }
  for (const std::string_view special : {"\xEF\xBB\xBF", "\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9"}) {
    if (text.find(special) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

// A flow list's items (`[a, b]`, `[]`), or nullopt when one is not plain.
std::optional<std::vector<std::string>> flow_items(std::string_view value) {
  const auto inner = trimmed(value.substr(1, value.size() - 2));
  std::vector<std::string> items;
  if (inner.empty()) {
    return items;
  }
  std::size_t pos = 0;
  while (true) {
    const auto comma = inner.find(',', pos);
    const auto item = trimmed(inner.substr(pos, comma == std::string_view::npos ? inner.npos : comma - pos));
    // A `:` in an item is left to yaml-cpp, which reads more of its forms.
    if (!plain_safe(item, true) || item.find(':') != std::string_view::npos) {
      return std::nullopt;
    }
    items.emplace_back(item);
    if (comma == std::string_view::npos) {
      return items;
    }
    pos = comma + 1;
  }
}

} // namespace

bool plain_safe(std::string_view value, bool in_flow) {
  if (value.empty() || value.front() == ' ' || value.back() == ' ' || value.front() == '\t' ||
      value.back() == '\t' || value.back() == ':' || is_null_word(value)) {
    return false;
  }
  constexpr std::string_view k_indicators = "?:,[]{}#&*!|>'\"%@`";
  if (k_indicators.find(value.front()) != std::string_view::npos) {
    return false;
  }
  if (value.front() == '-' && (value.size() == 1 || value[1] == ' ')) {
    return false;
  }
  if (value.find(": ") != std::string_view::npos || value.find(" #") != std::string_view::npos) {
    return false;
  }
  // Inside brackets yaml-cpp also ends a scalar at a `?` ([a?b] is an unknown token to it).
  if (in_flow && value.find_first_of(",[]{}?") != std::string_view::npos) {
    return false;
  }
  return std::none_of(value.begin(), value.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

std::optional<std::vector<PlainEntry>> read_plain_block(std::string_view text) {
  if (has_special_bytes(text)) {
    return std::nullopt;
  }
  std::vector<PlainEntry> entries;
  // The last key's value may still take `- item` lines: it had none after its colon.
  bool open_list = false;
  constexpr std::size_t k_no_items = std::string_view::npos;
  std::size_t item_indent = k_no_items; // the indentation of the open list's items
  std::size_t pos = 0;
  for (std::size_t line_number = 0; pos < text.size(); ++line_number) {
    const auto nl = text.find('\n', pos);
    const auto line = text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    const auto content = line.find_first_not_of(' ');
    if (content == std::string_view::npos || line[content] == '#') {
      continue; // blank, or a comment line
    }
    if (line[content] == '-') {
      // An item of the open list: `- value`, all at one indentation.
      if (!open_list || content + 1 >= line.size() || line[content + 1] != ' ' ||
          (item_indent != k_no_items && item_indent != content)) {
        return std::nullopt;
      }
      const auto item = trimmed(line.substr(content + 2));
      if (!plain_safe(item, false)) {
        return std::nullopt;
      }
      item_indent = content;
      auto& entry = entries.back();
      entry.kind = PlainEntry::Kind::list;
      entry.items.emplace_back(item);
      continue;
    }
    if (content != 0) {
      return std::nullopt; // a continuation line, or a nested map
    }
    // `key:` or `key: value`.
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || !plain_key(line.substr(0, colon)) ||
        (colon + 1 < line.size() && line[colon + 1] != ' ')) {
      return std::nullopt;
    }
    PlainEntry entry;
    entry.key = std::string(line.substr(0, colon));
    if (std::any_of(entries.begin(), entries.end(),
                    [&](const PlainEntry& e) { return e.key == entry.key; })) {
      return std::nullopt; // a key twice: the caller's parser reports it
    }
    entry.line = line_number;
    const auto value = trimmed(line.substr(colon + 1));
    open_list = value.empty();
    item_indent = k_no_items;
    if (value.empty() || is_null_word(value)) {
      entry.kind = PlainEntry::Kind::null;
    } else if (value.front() == '[') {
      if (value.back() != ']') {
        return std::nullopt;
      }
      auto items = flow_items(value);
      if (!items) {
        return std::nullopt;
      }
      entry.kind = PlainEntry::Kind::list;
      entry.items = std::move(*items);
    } else if (plain_safe(value, false)) {
      entry.kind = PlainEntry::Kind::scalar;
      entry.scalar = std::string(value);
    } else {
      return std::nullopt;
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

} // namespace engram::store
