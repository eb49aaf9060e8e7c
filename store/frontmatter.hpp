// Frontmatter: the YAML block at the top of a memory file, read with a YAML
// library and edited in place so that untouched keys keep their exact bytes.
#pragma once

#include "base/expected.hpp"
#include "store/plain_block.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace engram::store {

// Why a frontmatter block could not be read, at a line relative to the file.
struct FrontmatterError {
  int line = 1;
  std::string reason;
};

// How a scalar was written, so that an edit writes it back the same way.
enum class QuoteStyle { plain, single, double_ };

// The YAML between the `---` fences. Keeps the original text; edits replace
// only the lines of the key they touch.
class Frontmatter {
public:
  // Parses `text` (the lines between the fences, each ending in `eol`);
  // `first_line` is the file line number of its first line, for diagnostics.
  static Expected<Frontmatter, FrontmatterError> parse(std::string text, int first_line,
                                                       std::string eol);

  // Copies and assignments rebind the YAML tree, never write through it:
  // yaml-cpp's Node::operator= changes the node it was bound to, which a
  // copy (a workspace checkpoint, a sorted vector's temporary) shares.
  Frontmatter(const Frontmatter& other);
  // Moves like a copy: a YAML::Node has no move of its own.
  Frontmatter(Frontmatter&& other) noexcept;
  // Rebinds to `other`'s tree; the tree this one had is left as it was.
  Frontmatter& operator=(const Frontmatter& other);
  // Rebinds to `other`'s tree, taking its text.
  Frontmatter& operator=(Frontmatter&& other) noexcept;
  ~Frontmatter() = default;

  // The top-level keys, in file order.
  std::vector<std::string> keys() const;

  // True when the top-level key is present (whatever its value).
  bool has(std::string_view key) const;

  // The value of a top-level scalar key; nullopt when absent, null or not a scalar.
  std::optional<std::string> scalar(std::string_view key) const;

  // True when the key is present with no value (`key:` or `key: null`).
  bool is_null(std::string_view key) const;

  // True when the key is present and holds a sequence (block or flow).
  bool is_list(std::string_view key) const;

  // The items of a top-level sequence of scalars; nullopt when absent or not a sequence.
  std::optional<std::vector<std::string>> list(std::string_view key) const;

  // The file line (1-based) where a key is written; the block's first line when absent.
  int line_of(std::string_view key) const;

  // How the key's scalar value is quoted in the file (plain when absent).
  QuoteStyle quote_style(std::string_view key) const;

  // Sets a scalar, keeping the key's place and quoting; appends the key when absent.
  void set_scalar(std::string_view key, std::string_view value);

  // Sets a list, keeping the key's place and its flow/block form; appends when absent.
  void set_list(std::string_view key, const std::vector<std::string>& values);

  // Removes a key and its value lines; does nothing when absent.
  void remove(std::string_view key);

  // The lines a top-level key is written on, its key line and value lines with
  // their endings, exactly as in the text; nullopt when absent.
  std::optional<std::string> lines_of(std::string_view key) const;

  // Replaces a key's lines with `lines` (as lines_of gives them, from another
  // version of the block), keeping the key's place; appends them when absent.
  // Throws Error, changing nothing, unless the block then holds `key` and
  // every other key as before.
  void set_lines(std::string_view key, std::string_view lines);

  // The current text between the fences, byte-identical to the input until edited.
  const std::string& text() const { return m_text; }

private:
  struct KeySpan {
    std::string key;
    std::size_t begin; // byte offset of the key's first line
    std::size_t end;   // byte offset just past its last value line
    int line;          // 1-based line within the block
  };

  Frontmatter() = default;
  const KeySpan* find(std::string_view key) const;
  void replace_span(std::string_view key, const std::string& lines);
  void write_scalar(std::string_view key, std::string_view value);
  void write_list(std::string_view key, const std::vector<std::string>& values);
  void verify_edit(std::string_view key, const std::string& before, bool ok);
  void reparse();
  void require_editable() const;
  // The plain block's entry for `key` (m_plain is set), or nullptr when absent.
  const PlainEntry* plain_entry(std::string_view key) const;
  // The YAML tree of the text, parsed now if the text was read as a plain block.
  const YAML::Node& tree();

  std::string m_text;
  std::string m_eol = "\n";
  int m_first_line = 1;
  YAML::Node m_root; // the text's tree; not built for a plain block until an edit needs it
  bool m_root_current = false;
  // The text's keys and values when it is a plain block (plain_block.hpp),
  // which is read without a YAML parser; nullopt when yaml-cpp read it.
  std::optional<std::vector<PlainEntry>> m_plain;
  std::vector<KeySpan> m_spans;
  bool m_editable = true; // false for a flow-mapping block, which line edits cannot touch
};

} // namespace engram::store
