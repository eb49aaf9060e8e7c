// Frontmatter reading: parsing with yaml-cpp (or as a plain block), and the
// lines of each key located through the parser's marks, so that an edit
// (frontmatter_edit.cpp) changes only the lines of the key it touches.
#include "store/frontmatter.hpp"

#include "base/error.hpp"
#include "store/plain_block.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <sstream>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

namespace engram::store {
namespace {

// A line of the block: [begin, end) excludes the line ending; next is the next line's start.
struct Line {
  std::size_t begin;
  std::size_t end;
  std::size_t next;
};

std::vector<Line> split_lines(const std::string& text) {
  std::vector<Line> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    const std::size_t next = nl == std::string::npos ? text.size() : nl + 1;
    std::size_t end = nl == std::string::npos ? text.size() : nl;
    if (end > pos && text[end - 1] == '\r') {
      --end;
    }
    lines.push_back({pos, end, next});
    pos = next;
  }
  return lines;
}

bool is_blank_or_comment(std::string_view line) {
  const auto first = line.find_first_not_of(" \t");
  return first == std::string_view::npos || line[first] == '#';
}

// True when the quoted scalar starting at `pos` has its closing quote in `text`.
bool quote_closes(const std::string& text, std::size_t pos) {
  const char quote = text[pos];
  for (std::size_t i = pos + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;
      } else {
        return true;
      }
    }
  }
  return false;
}

// Throws when a quoted scalar of `node` (or of its items) is never closed:
// yaml-cpp accepts one at the end of input, and an edit after it would vanish into it.
void check_quotes_closed(const std::string& text, const YAML::Node& node) {
  if (node.IsSequence() || node.IsMap()) {
    for (const auto& item : node) {
      check_quotes_closed(text, item.IsDefined() ? item : item.second);
    }
    return;
  }
  const auto pos = static_cast<std::size_t>(node.Mark().pos);
  if (node.IsScalar() && !node.Mark().is_null() && pos < text.size() &&
      (text[pos] == '"' || text[pos] == '\'') && !quote_closes(text, pos)) {
    throw YAML::ParserException(node.Mark(), "unterminated quoted string");
  }
}

// How deep frontmatter may nest (a list in a map in the block is 3). Memory
// fields are scalars and lists; far deeper is a mistake or an attack on the
// parser's recursion.
constexpr int k_max_depth = 16;

// Walks the block's parse events before any tree is built, refusing aliases
// (`*name`: a "billion laughs" block expands exponentially in whatever walks
// the tree) and nesting deeper than k_max_depth.
class ShapeCheck : public YAML::EventHandler {
public:
  void OnDocumentStart(const YAML::Mark& /*mark*/) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& /*mark*/, YAML::anchor_t /*anchor*/) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t /*anchor*/) override {
    throw YAML::ParserException(mark, "aliases (*name) are not accepted in frontmatter");
  }
  void OnScalar(const YAML::Mark& /*mark*/, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                const std::string& /*value*/) override {}
  void OnSequenceStart(const YAML::Mark& mark, const std::string& /*tag*/,
                       YAML::anchor_t /*anchor*/, YAML::EmitterStyle::value /*style*/) override {
    enter(mark);
  }
  void OnSequenceEnd() override { --m_depth; }
  void OnMapStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                  YAML::EmitterStyle::value /*style*/) override {
    enter(mark);
  }
  void OnMapEnd() override { --m_depth; }

private:
  void enter(const YAML::Mark& mark) {
    if (++m_depth > k_max_depth) {
      throw YAML::ParserException(
          mark,
          fmt::format("nested deeper than {} levels; not accepted in frontmatter", k_max_depth));
    }
  }
  int m_depth = 0;
};

// False only when the block can have neither an alias nor nesting anywhere
// near k_max_depth, judged from its characters alone: an alias needs `*`,
// and every level of nesting needs a `[` or `{`, one more column of
// indentation, or one more `- ` before a line's content. Ordinary
// frontmatter (scalars, short lists) is cleared without a second parse.
bool needs_shape_check(std::string_view text) {
  constexpr std::size_t k_margin = k_max_depth / 2; // far below the limit
  std::size_t brackets = 0;
  std::size_t deepest_prefix = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    const auto line = text.substr(pos, nl == std::string_view::npos ? text.size() - pos : nl - pos);
    std::size_t prefix = 0;
    while (prefix < line.size() &&
           (line[prefix] == ' ' || line[prefix] == '\t' || line[prefix] == '-')) {
      ++prefix;
    }
    deepest_prefix = std::max(deepest_prefix, prefix);
    for (const char c : line) {
      if (c == '*') {
        return true;
      }
      brackets += c == '[' || c == '{' ? 1 : 0;
    }
    if (brackets + deepest_prefix >= k_margin) {
      return true;
    }
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
  }
  return false;
}

// Throws YAML::ParserException when the block has an alias or nests too deep.
void check_shape(const std::string& text) {
  if (!needs_shape_check(text)) {
    return;
  }
  std::istringstream in(text);
  YAML::Parser parser(in);
  ShapeCheck check;
  parser.HandleNextDocument(check);
}

} // namespace

Expected<Frontmatter, FrontmatterError> Frontmatter::parse(std::string text, int first_line,
                                                           std::string eol) {
  Frontmatter frontmatter;
  frontmatter.m_text = std::move(text);
  frontmatter.m_eol = std::move(eol);
  frontmatter.m_first_line = first_line;
  try {
    frontmatter.reparse();
  } catch (const YAML::Exception& e) {
    int line = e.mark.is_null() ? first_line : first_line + e.mark.line;
    const auto lines = split_lines(frontmatter.m_text);
    if (!e.mark.is_null() && static_cast<std::size_t>(e.mark.line) >= lines.size()) {
      // The parser ran off the end (an unclosed bracket or quote): point at
      // the last key, where the unclosed value starts, not at the fence.
      for (std::size_t i = lines.size(); i-- > 0;) {
        const auto content = std::string_view(frontmatter.m_text)
                                 .substr(lines[i].begin, lines[i].end - lines[i].begin);
        if (!content.empty() && content[0] != ' ' && content[0] != '\t' && content[0] != '#' &&
            content[0] != '-') {
          line = first_line + static_cast<int>(i);
          break;
        }
      }
    }
    return unexpected(FrontmatterError{line, fmt::format("YAML error: {}", e.msg)});
  } catch (const Error& e) {
    return unexpected(FrontmatterError{first_line, e.what()});
  }
  // Duplicate keys are legal to yaml-cpp but make the file ambiguous.
  for (std::size_t i = 0; i < frontmatter.m_spans.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (frontmatter.m_spans[i].key == frontmatter.m_spans[j].key) {
        return unexpected(FrontmatterError{
            first_line + frontmatter.m_spans[i].line - 1,
            fmt::format("duplicate key '{}' (first at line {})", frontmatter.m_spans[i].key,
                        first_line + frontmatter.m_spans[j].line - 1)});
      }
    }
  }
  return frontmatter;
}

Frontmatter::Frontmatter(const Frontmatter& other)
    : m_text(other.m_text), m_eol(other.m_eol), m_first_line(other.m_first_line),
      m_root(other.m_root), m_root_current(other.m_root_current), m_plain(other.m_plain),
      m_spans(other.m_spans), m_editable(other.m_editable) {}

Frontmatter::Frontmatter(Frontmatter&& other) noexcept
    : m_text(std::move(other.m_text)), m_eol(std::move(other.m_eol)),
      m_first_line(other.m_first_line), m_root(other.m_root), m_root_current(other.m_root_current),
      m_plain(std::move(other.m_plain)), m_spans(std::move(other.m_spans)),
      m_editable(other.m_editable) {}

Frontmatter& Frontmatter::operator=(const Frontmatter& other) {
  if (this != &other) {
    m_text = other.m_text;
    m_eol = other.m_eol;
    m_first_line = other.m_first_line;
    m_root.reset(other.m_root);
    m_root_current = other.m_root_current;
    m_plain = other.m_plain;
    m_spans = other.m_spans;
    m_editable = other.m_editable;
  }
  return *this;
}

Frontmatter& Frontmatter::operator=(Frontmatter&& other) noexcept {
  if (this != &other) {
    m_text = std::move(other.m_text);
    m_eol = std::move(other.m_eol);
    m_first_line = other.m_first_line;
    m_root.reset(other.m_root);
    m_root_current = other.m_root_current;
    m_plain = std::move(other.m_plain);
    m_spans = std::move(other.m_spans);
    m_editable = other.m_editable;
  }
  return *this;
}

void Frontmatter::reparse() {
  m_spans.clear();
  m_editable = true;
  // Each key and the 0-based line it is on, in file order.
  std::vector<std::pair<std::string, std::size_t>> keys;
  m_plain = read_plain_block(m_text);
  if (m_plain) {
    // Read without yaml-cpp; the tree is parsed if an edit asks for it.
    m_root_current = false;
    for (const auto& entry : *m_plain) {
      keys.emplace_back(entry.key, entry.line);
    }
  } else {
    // reset, not `=`: assignment would rewrite the tree that copies still share.
    check_shape(m_text);
    m_root.reset(YAML::Load(m_text));
    m_root_current = true;
    if (!m_root.IsDefined() || m_root.IsNull()) {
      m_root.reset(YAML::Node(YAML::NodeType::Map));
      return;
    }
    if (!m_root.IsMap()) {
      throw Error("frontmatter is not a mapping of `key: value` lines");
    }
    for (const auto& pair : m_root) {
      check_quotes_closed(m_text, pair.second);
    }
    std::vector<std::pair<std::string, YAML::Mark>> marked;
    for (const auto& pair : m_root) {
      if (!pair.first.IsScalar()) {
        throw Error("frontmatter keys must be plain words");
      }
      marked.emplace_back(pair.first.Scalar(), pair.first.Mark());
      if (pair.first.Mark().column != 0) {
        m_editable = false;
      }
    }
    std::sort(marked.begin(), marked.end(),
              [](const auto& a, const auto& b) { return a.second.pos < b.second.pos; });
    for (auto& [key, mark] : marked) {
      keys.emplace_back(std::move(key), static_cast<std::size_t>(mark.line));
    }
  }
  const auto lines = split_lines(m_text);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto line_index = keys[i].second;
    const std::size_t begin = line_index < lines.size() ? lines[line_index].begin : m_text.size();
    std::size_t last = lines.size();
    if (i + 1 < keys.size()) {
      last = keys[i + 1].second;
    }
    // Blank and comment lines before the next key belong to the next key, not this value.
    while (last > line_index + 1 &&
           is_blank_or_comment(std::string_view(m_text).substr(
               lines[last - 1].begin, lines[last - 1].end - lines[last - 1].begin))) {
      --last;
    }
    const std::size_t end =
        last == 0 ? begin : (last <= lines.size() ? lines[last - 1].next : m_text.size());
    m_spans.push_back(
        {keys[i].first, begin, std::max(begin, end), static_cast<int>(keys[i].second) + 1});
  }
}

const PlainEntry* Frontmatter::plain_entry(std::string_view key) const {
  // m_spans were made from the entries, one each, in the same order.
  const auto* span = find(key);
  return span == nullptr ? nullptr : &(*m_plain)[static_cast<std::size_t>(span - m_spans.data())];
}

const YAML::Node& Frontmatter::tree() {
  if (!m_root_current) {
    m_root.reset(YAML::Load(m_text)); // a plain block: it parses, and to the same values
    if (!m_root.IsDefined() || m_root.IsNull()) {
      m_root.reset(YAML::Node(YAML::NodeType::Map)); // only comments and blank lines
    }
    m_root_current = true;
  }
  return m_root;
}

std::vector<std::string> Frontmatter::keys() const {
  std::vector<std::string> out;
  out.reserve(m_spans.size());
  for (const auto& span : m_spans) {
    out.push_back(span.key);
  }
  return out;
}

const Frontmatter::KeySpan* Frontmatter::find(std::string_view key) const {
  for (const auto& span : m_spans) {
    if (span.key == key) {
      return &span;
    }
  }
  return nullptr;
}

bool Frontmatter::has(std::string_view key) const {
  return find(key) != nullptr;
}

std::optional<std::string> Frontmatter::scalar(std::string_view key) const {
  if (m_plain) {
    const auto* entry = plain_entry(key);
    return entry != nullptr && entry->kind == PlainEntry::Kind::scalar
               ? std::optional(entry->scalar)
               : std::nullopt;
  }
  if (!has(key)) {
    return std::nullopt;
  }
  const YAML::Node& root = m_root;
  const YAML::Node node = root[std::string(key)];
  if (!node.IsScalar()) {
    return std::nullopt;
  }
  return node.Scalar();
}

bool Frontmatter::is_null(std::string_view key) const {
  if (m_plain) {
    const auto* entry = plain_entry(key);
    return entry != nullptr && entry->kind == PlainEntry::Kind::null;
  }
  if (!has(key)) {
    return false;
  }
  const YAML::Node& root = m_root;
  return root[std::string(key)].IsNull();
}

bool Frontmatter::is_list(std::string_view key) const {
  if (m_plain) {
    const auto* entry = plain_entry(key);
    return entry != nullptr && entry->kind == PlainEntry::Kind::list;
  }
  if (!has(key)) {
    return false;
  }
  const YAML::Node& root = m_root;
  return root[std::string(key)].IsSequence();
}

std::optional<std::vector<std::string>> Frontmatter::list(std::string_view key) const {
  if (m_plain) {
    const auto* entry = plain_entry(key);
    return entry != nullptr && entry->kind == PlainEntry::Kind::list ? std::optional(entry->items)
                                                                     : std::nullopt;
  }
  if (!is_list(key)) {
    return std::nullopt;
  }
  const YAML::Node& root = m_root;
  std::vector<std::string> out;
  for (const auto& item : root[std::string(key)]) {
    if (!item.IsScalar()) {
      return std::nullopt;
    }
    out.push_back(item.Scalar());
  }
  return out;
}

int Frontmatter::line_of(std::string_view key) const {
  const auto* span = find(key);
  return span == nullptr ? m_first_line : m_first_line + span->line - 1;
}

QuoteStyle Frontmatter::quote_style(std::string_view key) const {
  if (!has(key) || m_plain) {
    return QuoteStyle::plain; // a plain block quotes nothing
  }
  const YAML::Node& root = m_root;
  const YAML::Node node = root[std::string(key)];
  const auto pos = static_cast<std::size_t>(node.Mark().pos);
  if (node.Mark().is_null() || pos >= m_text.size()) {
    return QuoteStyle::plain;
  }
  if (m_text[pos] == '\'') {
    return QuoteStyle::single;
  }
  return m_text[pos] == '"' ? QuoteStyle::double_ : QuoteStyle::plain;
}

} // namespace engram::store
