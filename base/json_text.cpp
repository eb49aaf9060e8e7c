// JSON text: nlohmann's layout (see serializer::dump), strings escaped a run
// at a time.
#include "base/json_text.hpp"

#include "base/utf8.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace engram {

namespace {

// How nlohmann writes what is not a container or a valid string.
void append_by_nlohmann(std::string& out, const nlohmann::json& value) {
  out += value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Eight bytes at a time: whether any is at or above 0x80, and whether any is
// one JSON escapes (below 0x20, '"' or '\\'). Each test is exact about
// whether such a byte is there, not about which it is.
constexpr std::uint64_t k_ones = 0x0101010101010101ULL;
constexpr std::uint64_t k_highs = 0x8080808080808080ULL;

std::uint64_t load(const char* bytes) {
  std::uint64_t word = 0;
  std::memcpy(&word, bytes, sizeof word);
  return word;
}

std::uint64_t zero_byte(std::uint64_t word) { return (word - k_ones) & ~word & k_highs; }

bool any_escaped(std::uint64_t word) {
  return (((word - k_ones * 0x20) & ~word & k_highs) | zero_byte(word ^ (k_ones * '"')) |
          zero_byte(word ^ (k_ones * '\\'))) != 0;
}

bool is_ascii(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t high = 0;
  for (; i + 8 <= text.size(); i += 8) {
    high |= load(text.data() + i) & k_highs;
  }
  for (; i < text.size(); ++i) {
    high |= static_cast<unsigned char>(text[i]) & 0x80U;
  }
  return high == 0;
}

// `text` as a JSON string: the escapes nlohmann writes with ensure_ascii off.
void append_string(std::string& out, std::string_view text) {
  if (!is_ascii(text) && first_invalid_utf8(text)) {
    append_by_nlohmann(out, nlohmann::json(std::string(text)));
    return;
  }
  static constexpr char k_hex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0; // where the bytes not yet appended begin
  std::size_t i = 0;
  while (i < text.size()) {
    if (i + 8 <= text.size() && !any_escaped(load(text.data() + i))) {
      i += 8;
      continue;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    ++i;
    if (c >= 0x20 && c != '"' && c != '\\') {
      continue;
    }
    out.append(text.substr(run, i - 1 - run));
    run = i;
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
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
      out += "\\u00";
      out += k_hex[c >> 4];
      out += k_hex[c & 0xF];
    }
  }
  out.append(text.substr(run));
  out += '"';
}

// A new line, indented for `level`.
void line_start(std::string& out, int indent, std::size_t level) {
  out += '\n';
  out.append(static_cast<std::size_t>(indent) * level, ' ');
}

void append_value(std::string& out, const nlohmann::json& value, int indent, int depth) {
  const bool pretty = indent >= 0;
  const auto line_start = [&](int level) {
    engram::line_start(out, indent, static_cast<std::size_t>(level));
  };
  switch (value.type()) {
  case nlohmann::json::value_t::object:
  case nlohmann::json::value_t::array: {
    const bool object = value.is_object();
    if (value.empty()) {
      out += object ? "{}" : "[]";
      return;
    }
    out += object ? '{' : '[';
    bool first = true;
    for (const auto& item : value.items()) { // an array's keys are never asked for, never made
      if (!first) {
        out += ',';
      }
      first = false;
      if (pretty) {
        line_start(depth + 1);
      }
      if (object) {
        append_string(out, item.key());
        out += pretty ? ": " : ":";
      }
      append_value(out, item.value(), indent, depth + 1);
    }
    if (pretty) {
      line_start(depth);
    }
    out += object ? '}' : ']';
    return;
  }
  case nlohmann::json::value_t::string:
    append_string(out, value.get_ref<const std::string&>());
    return;
  default:
    append_by_nlohmann(out, value);
  }
}

} // namespace

void append_json_text(std::string& out, const nlohmann::json& value, int indent) {
  append_value(out, value, indent, 0);
}

std::string json_text(const nlohmann::json& value, int indent) {
  std::string out;
  append_json_text(out, value, indent);
  return out;
}

void JsonWriter::drain_every(std::size_t every, std::function<void(std::string&)> drain) {
  m_drain_at = every;
  m_drain = std::move(drain);
}

void JsonWriter::drain() {
  if (m_drain && !m_out.empty()) {
    m_drain(m_out);
    m_out.clear();
  }
}

void JsonWriter::next() {
  if (m_drain && m_out.size() >= m_drain_at) {
    drain(); // between values: nothing written so far is looked at again
  }
  if (m_after_key) {
    m_after_key = false;
    return;
  }
  if (m_counts.empty()) {
    return; // the document's own value
  }
  if (m_counts.back()++ > 0) {
    m_out += ',';
  }
  if (m_indent >= 0) {
    line_start(m_out, m_indent, m_counts.size());
  }
}

void JsonWriter::open(char bracket) {
  next();
  m_out += bracket;
  m_counts.push_back(0);
}

void JsonWriter::close(char bracket) {
  const std::size_t held = m_counts.back();
  m_counts.pop_back();
  if (held > 0 && m_indent >= 0) {
    line_start(m_out, m_indent, m_counts.size());
  }
  m_out += bracket;
}

void JsonWriter::key(std::string_view key) {
  next();
  append_string(m_out, key);
  m_out += m_indent >= 0 ? ": " : ":";
  m_after_key = true;
}

void JsonWriter::string(std::string_view text) {
  next();
  append_string(m_out, text);
}

void JsonWriter::value(const nlohmann::json& value) {
  next();
  append_value(m_out, value, m_indent, static_cast<int>(m_counts.size()));
}

void JsonWriter::compact_text(std::string_view text) {
  next();
  m_out += text;
}

void write_object(JsonWriter& writer, std::vector<JsonMember> members) {
  std::sort(members.begin(), members.end(),
            [](const JsonMember& a, const JsonMember& b) { return a.key < b.key; });
  writer.begin_object();
  for (const auto& member : members) {
    writer.key(member.key);
    member.write(writer);
  }
  writer.end_object();
}

} // namespace engram
