// MemoryFile: one Markdown memory with its YAML frontmatter, read so that it
// can be written back byte for byte, and edited so that only the edit changes.
#pragma once

#include "base/expected.hpp"
#include "engram/date.hpp"
#include "store/diagnostic.hpp"
#include "store/frontmatter.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::store {

// How important a memory is (the `salience` field).
enum class Salience { low, medium, high };

// A parsed memory file. Bytes outside what an edit touches are kept exactly.
class MemoryFile {
public:
  // Parses a file's bytes; `path` is used in diagnostics only. Returns an
  // error diagnostic when the file cannot be used (bad UTF-8, unterminated
  // frontmatter, a YAML error, tags/trigger/related that are not lists).
  static Expected<MemoryFile, Diagnostic> parse(std::string path, std::string_view bytes);

  // The file's bytes: identical to the input when nothing was edited.
  std::string render() const;

  // The path given to parse, for diagnostics.
  const std::string& path() const { return m_path; }

  // True when the file starts with a UTF-8 byte-order mark.
  bool has_bom() const { return m_bom; }

  // The file's line ending: "\r\n" when its first line ends so, else "\n".
  const std::string& eol() const { return m_eol; }

  // The frontmatter, when the file has one.
  const std::optional<Frontmatter>& frontmatter() const { return m_frontmatter; }
  std::optional<Frontmatter>& frontmatter() { return m_frontmatter; }

  // The body: everything after the closing fence (or the whole file without one).
  const std::string& body() const { return m_body; }

  // The 1-based file line on which the body starts.
  int body_first_line() const { return m_body_first_line; }

  // Replaces the whole body.
  void set_body(std::string body) { m_body = std::move(body); }

  // Replaces `count` bytes of the body at `at` (at most its size) with `text`.
  void replace_in_body(std::size_t at, std::size_t count, std::string_view text) {
    m_body.replace(at, count, text);
  }

  // The body's lines without their endings.
  std::vector<std::string_view> body_lines() const;

  // Replaces line `index` (0-based) of the body, keeping its line ending.
  void replace_body_line(std::size_t index, std::string_view text);

  // Adds a frontmatter block (empty) when the file has none.
  Frontmatter& ensure_frontmatter();

  // The value of a scalar field, or nullopt.
  std::optional<std::string> field(std::string_view key) const;

  // The `type` field (episodic, semantic, procedural, reference, ...).
  std::optional<std::string> type() const { return field("type"); }

  // The `tags` list as written (empty when absent).
  std::vector<std::string> tags() const { return list_field("tags"); }

  // The `trigger` list as written (empty when absent).
  std::vector<std::string> trigger() const { return list_field("trigger"); }

  // The `related` list as written (empty when absent).
  std::vector<std::string> related() const { return list_field("related"); }

  // The `salience` field; nullopt when absent or not low/medium/high.
  std::optional<Salience> salience() const;

  // A date field (`created`, `last-accessed`, `decay-after`): nullopt when
  // absent or not a date. Invalid values are reported by field_diagnostics.
  std::optional<Date> date(std::string_view key) const;

  // Warnings about fields that are present but unusable (a date that is not a
  // date, an unknown salience). The file is still usable; the field is not.
  const std::vector<Diagnostic>& field_diagnostics() const { return m_field_diagnostics; }

private:
  MemoryFile() = default;
  std::vector<std::string> list_field(std::string_view key) const;
  std::optional<Diagnostic> check_list_fields() const;
  bool is_null(std::string_view key) const;
  void check_fields();

  std::string m_path;
  bool m_bom = false;
  std::string m_eol = "\n";
  std::optional<Frontmatter> m_frontmatter;
  std::string m_open_fence;  // the opening `---` line with its ending
  std::string m_close_fence; // the closing `---` (or `...`) line with its ending
  std::string m_body;
  int m_body_first_line = 1;
  std::vector<Diagnostic> m_field_diagnostics;
};

// The known date fields of the four-layer schema.
inline constexpr std::string_view k_date_fields[] = {"created", "last-accessed", "decay-after"};

// Reads a date the way engram accepts them (the SDK's, engram/date.hpp, so
// that rules read every date as the host does).
using engram::parse_date_value;

} // namespace engram::store
