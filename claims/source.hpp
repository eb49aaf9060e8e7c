// Byte ranges of a Markdown body and the line arithmetic over them, shared by
// the block walk, the sentence splitter and the claim splitter.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace engram::claims {

// A half-open byte range [begin, end) of a source text.
struct Span {
  std::size_t begin = 0; // the first byte
  std::size_t end = 0;   // one past the last byte

  // Whether the range holds no bytes.
  [[nodiscard]] bool empty() const { return end <= begin; }
};

// Where each line of a text starts, to answer line questions in O(log n).
class LineIndex {
public:
  // Indexes the lines of `text`, which must outlive the index.
  explicit LineIndex(std::string_view text);

  // The 1-based line holding byte `offset`.
  [[nodiscard]] int line_of(std::size_t offset) const;
  // The offset of the first byte of the line holding `offset`.
  [[nodiscard]] std::size_t line_begin(std::size_t offset) const;
  // The offset of the line break ending the line holding `offset` (or the text's size).
  [[nodiscard]] std::size_t line_end(std::size_t offset) const;
  // The offset of the first byte of the next line (or the text's size on the last line).
  [[nodiscard]] std::size_t next_line(std::size_t offset) const;

private:
  std::string_view m_text;                // the indexed text
  std::vector<std::size_t> m_line_begins; // offsets where lines start, ascending
};

// Whether a byte is ASCII horizontal or vertical whitespace.
[[nodiscard]] bool is_space(char c);

// Skips the container prefix of a line (indentation and block-quote `>`) from
// `offset`, never past `limit`.
[[nodiscard]] std::size_t skip_prefix(std::string_view text, std::size_t offset, std::size_t limit);

// Whether the bytes of `span` are all whitespace or block-quote markers.
[[nodiscard]] bool is_blank(std::string_view text, Span span);

// `span` with whitespace trimmed from its end.
[[nodiscard]] Span trim_end(std::string_view text, Span span);

} // namespace engram::claims
