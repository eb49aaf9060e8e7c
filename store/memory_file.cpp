// MemoryFile: splitting a file into BOM, fences, frontmatter and body without
// normalising anything, so that render() gives back the bytes it was given.
#include "store/memory_file.hpp"

#include "base/utf8.hpp"

#include <array>
#include <filesystem>
#include <fmt/format.h>

namespace engram::store {
namespace {

constexpr std::string_view k_bom = "\xEF\xBB\xBF";

// The line at `pos` without its ending, and where the next one starts.
std::pair<std::string_view, std::size_t> line_from(std::string_view text, std::size_t pos) {
  const auto nl = text.find('\n', pos);
  const std::size_t next = nl == std::string_view::npos ? text.size() : nl + 1;
  std::string_view line = text.substr(pos, (nl == std::string_view::npos ? text.size() : nl) - pos);
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  return {line, next};
}

std::string_view trim_right(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

// True for a line that reads like a YAML `key:` line.
bool is_key_line(std::string_view line) {
  if (line.empty() || !((line[0] >= 'a' && line[0] <= 'z') || (line[0] >= 'A' && line[0] <= 'Z') ||
                        line[0] == '_')) {
    return false;
  }
  std::size_t i = 1;
  while (i < line.size() && ((line[i] >= 'a' && line[i] <= 'z') || (line[i] >= 'A' && line[i] <= 'Z') ||
                             (line[i] >= '0' && line[i] <= '9') || line[i] == '_' || line[i] == '-')) {
    ++i;
  }
  return i < line.size() && line[i] == ':' &&
         (i + 1 == line.size() || line[i + 1] == ' ' || line[i + 1] == '\t');
}

bool is_fence(std::string_view line) {
  const auto trimmed = trim_right(line);
  return trimmed == "---" || trimmed == "...";
}

// The 0-based body line where a second frontmatter block starts: the body
// opens (after blank lines) with `---`, YAML `key:` lines and another fence —
// or, when the first block was empty (`---` twice: a nested fence), with
// `key:` lines and a fence. An agent that wrote either meant frontmatter, and
// engram would otherwise read those fields as body text.
std::optional<int> second_block_line(std::string_view body, bool first_block_empty) {
  std::size_t pos = 0;
  int index = 0;
  while (pos < body.size()) {
    const auto [line, next] = line_from(body, pos);
    if (!trim_right(line).empty()) {
      break;
    }
    pos = next;
    ++index;
  }
  if (pos >= body.size()) {
    return std::nullopt;
  }
  const int start = index;
  auto [line, next] = line_from(body, pos);
  if (trim_right(line) == "---") {
    pos = next;
    ++index;
  } else if (!first_block_empty) {
    return std::nullopt;
  }
  if (pos >= body.size() || !is_key_line(line_from(body, pos).first)) {
    return std::nullopt;
  }
  while (pos < body.size()) {
    const auto [inner, after] = line_from(body, pos);
    if (is_fence(inner)) {
      return start;
    }
    pos = after;
  }
  return std::nullopt;
}

bool is_blank_text(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

} // namespace

Expected<MemoryFile, Diagnostic> MemoryFile::parse(std::string path, std::string_view bytes) {
  auto fail = [&path](int line, std::string reason) {
    return unexpected(Diagnostic{path, line, std::move(reason), Severity::error});
  };
  if (const auto nul = bytes.find('\0'); nul != std::string_view::npos) {
    return fail(line_at(bytes, nul), "binary file (NUL byte); not a memory file");
  }
  if (const auto bad = first_invalid_utf8(bytes)) {
    return fail(line_at(bytes, *bad), fmt::format("invalid UTF-8 at byte {}", *bad));
  }

  MemoryFile file;
  file.m_path = path;
  if (bytes.starts_with(k_bom)) {
    file.m_bom = true;
    bytes.remove_prefix(k_bom.size());
  }
  if (const auto nl = bytes.find('\n'); nl != std::string_view::npos && nl > 0 && bytes[nl - 1] == '\r') {
    file.m_eol = "\r\n";
  }

  const auto [first, after_first] = line_from(bytes, 0);
  if (trim_right(first) != "---") {
    file.m_body = std::string(bytes);
    file.check_fields();
    return file;
  }

  // Find the closing fence: `---` or YAML's document end `...`.
  int line_number = 2;
  std::size_t pos = after_first;
  while (pos < bytes.size()) {
    const auto [line, next] = line_from(bytes, pos);
    const auto trimmed = trim_right(line);
    if (trimmed == "---" || trimmed == "...") {
      file.m_open_fence = std::string(bytes.substr(0, after_first));
      file.m_close_fence = std::string(bytes.substr(pos, next - pos));
      file.m_body = std::string(bytes.substr(next));
      file.m_body_first_line = line_number + 1;
      auto frontmatter = Frontmatter::parse(std::string(bytes.substr(after_first, pos - after_first)), 2,
                                            file.m_eol);
      if (!frontmatter) {
        return fail(frontmatter.error().line, frontmatter.error().reason);
      }
      file.m_frontmatter = std::move(frontmatter.value());
      const bool empty = is_blank_text(file.m_frontmatter->text());
      if (const auto second = second_block_line(file.m_body, empty)) {
        return fail(file.m_body_first_line + *second,
                    empty ? "nested frontmatter: an empty '---' block is followed by YAML and "
                            "another fence; not read"
                          : "a second frontmatter block; merge it into the first; not read");
      }
      if (auto error = file.check_list_fields()) {
        return unexpected(std::move(*error));
      }
      file.check_fields();
      return file;
    }
    pos = next;
    ++line_number;
  }
  return fail(1, "unterminated frontmatter: the opening '---' has no closing '---'");
}

std::string MemoryFile::render() const {
  std::string out;
  if (m_bom) {
    out += k_bom;
  }
  if (m_frontmatter) {
    out += m_open_fence;
    out += m_frontmatter->text();
    out += m_close_fence;
  }
  out += m_body;
  return out;
}

std::vector<std::string_view> MemoryFile::body_lines() const {
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  const std::string_view body = m_body;
  while (pos < body.size()) {
    auto [line, next] = line_from(body, pos);
    lines.push_back(line);
    pos = next;
  }
  return lines;
}

void MemoryFile::replace_body_line(std::size_t index, std::string_view text) {
  std::size_t pos = 0;
  const std::string_view body = m_body;
  for (std::size_t i = 0; pos < body.size(); ++i) {
    auto [line, next] = line_from(body, pos);
    if (i == index) {
      m_body.replace(pos, line.size(), text);
      return;
    }
    pos = next;
  }
  throw std::out_of_range(fmt::format("{}: body has no line {}", m_path, index));
}

Frontmatter& MemoryFile::ensure_frontmatter() {
  if (!m_frontmatter) {
    m_open_fence = "---" + m_eol;
    m_close_fence = "---" + m_eol;
    m_frontmatter = Frontmatter::parse("", 2, m_eol).value();
  }
  return *m_frontmatter;
}

std::optional<std::string> MemoryFile::field(std::string_view key) const {
  return m_frontmatter ? m_frontmatter->scalar(key) : std::nullopt;
}

std::vector<std::string> MemoryFile::list_field(std::string_view key) const {
  if (!m_frontmatter) {
    return {};
  }
  return m_frontmatter->list(key).value_or(std::vector<std::string>{});
}

std::optional<Salience> MemoryFile::salience() const {
  const auto value = field("salience");
  if (value == "low") {
    return Salience::low;
  }
  if (value == "medium") {
    return Salience::medium;
  }
  if (value == "high") {
    return Salience::high;
  }
  return std::nullopt;
}

std::optional<Date> MemoryFile::date(std::string_view key) const {
  const auto value = field(key);
  return value ? parse_date_value(*value) : std::nullopt;
}

std::optional<Diagnostic> MemoryFile::check_list_fields() const {
  for (std::string_view key : {"tags", "trigger", "related"}) {
    if (!m_frontmatter->has(key) || m_frontmatter->is_null(key)) {
      continue; // `tags:` with nothing is an empty list
    }
    if (!m_frontmatter->is_list(key)) {
      return Diagnostic{m_path, m_frontmatter->line_of(key),
                        fmt::format("'{}' must be a list, like [a, b] or '- a' lines", key),
                        Severity::error};
    }
    if (!m_frontmatter->list(key)) {
      return Diagnostic{m_path, m_frontmatter->line_of(key),
                        fmt::format("'{}' must be a list of words, not of lists or mappings", key),
                        Severity::error};
    }
  }
  return std::nullopt;
}

bool MemoryFile::is_null(std::string_view key) const {
  return m_frontmatter && m_frontmatter->is_null(key);
}

void MemoryFile::check_fields() {
  if (!m_frontmatter) {
    return;
  }
  auto warn = [this](std::string_view key, std::string reason) {
    m_field_diagnostics.push_back(
        Diagnostic{m_path, m_frontmatter->line_of(key), std::move(reason), Severity::warning});
  };
  for (std::string_view key : k_date_fields) {
    if (!m_frontmatter->has(key) || is_null(key)) {
      continue;
    }
    const auto value = m_frontmatter->scalar(key);
    if (!value) {
      warn(key, fmt::format("'{}' is not a date (expected YYYY-MM-DD); the field is ignored", key));
    } else if (!parse_date_value(*value)) {
      warn(key, fmt::format("'{}: {}' is not a date (expected YYYY-MM-DD); the field is ignored", key,
                            *value));
    }
  }
  for (const auto& entry : related()) {
    const auto normal = std::filesystem::path(entry).lexically_normal();
    if (normal.is_absolute() || (!normal.empty() && *normal.begin() == "..")) {
      warn("related", fmt::format("'related' entry '{}' points outside the store; it is not followed",
                                  entry));
    }
  }
  if (m_frontmatter->has("salience") && !is_null("salience") && !salience()) {
    warn("salience", fmt::format("'salience: {}' is not one of low, medium, high; the field is ignored",
                                 m_frontmatter->scalar("salience").value_or("…")));
  }
}

} // namespace engram::store
