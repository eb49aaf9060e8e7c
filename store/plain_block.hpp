// PlainBlock: the part of YAML that frontmatter is nearly always written in —
// `key: word`, `key: [a, b]`, `key:` with `- item` lines, comments, blank
// lines — read without a YAML parser. Anything else, or anything a YAML
// parser could read differently, is refused, and the caller parses the block
// with yaml-cpp: the answer is the same either way, only its cost differs
// (yaml-cpp builds a node tree through a regex scanner, a tenth of a full
// consolidation's time on a store of short files).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::store {

// One top-level key of a plain block and its value, as yaml-cpp reads it.
struct PlainEntry {
  enum class Kind {
    null,   // `key:` with nothing after it, `key: null`, `key: ~`
    scalar, // a plain scalar, without the spaces around it
    list,   // a flow list `[a, b]` or `- item` lines, each item a plain scalar
  };
  std::string key;
  std::size_t line = 0; // 0-based line of the key in the block
  Kind kind = Kind::null;
  std::string scalar;             // Kind::scalar
  std::vector<std::string> items; // Kind::list
};

// The entries of `text` (the lines between the fences), in file order, when
// every line is in the plain subset; nullopt otherwise, and then only a YAML
// parser may say what the block holds (or that it is not YAML).
std::optional<std::vector<PlainEntry>> read_plain_block(std::string_view text);

// True when `value` is written as a plain scalar that YAML reads back as
// exactly `value` (a string, not null); `in_flow` for an item of `[a, b]`.
bool plain_safe(std::string_view value, bool in_flow);

} // namespace engram::store
