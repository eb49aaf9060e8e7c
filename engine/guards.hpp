// Guards: the files agents load every session, measured against the limits
// that keep them small. WORKING.md in characters, MEMORY.md in lines, CORE.md
// in Deep Truths and in the characters of its core blocks (the limits the
// promotion rule writes it within). One measure for `engram status`,
// `engram health` and the daemon's guard trigger.
#pragma once

#include "config/config.hpp"
#include "store/layout.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::engine {

// One guarded file measured against one of its guards.
struct GuardReading {
  std::string name;  // the JSON key: working, memory_index, core_truths, core_blocks
  std::string path;  // store-relative
  std::string unit;  // chars, lines or truths
  bool present = false;
  std::size_t size = 0;
  std::int64_t limit = 0;

  // True when the file is past its guard.
  bool over() const { return static_cast<std::int64_t>(size) > limit; }
};

// The store-relative paths of the guarded files, in the order they are reported.
std::vector<std::string> guarded_paths(const store::Layout& layout);

// The guards of the file at store-relative `path` with `bytes` (nullopt: the
// file is missing), in the order they are reported; none when the file is
// not guarded.
std::vector<GuardReading> read_guards(std::string_view path, const std::optional<std::string>& bytes,
                                      const store::Layout& layout, const config::Settings& settings);

// CORE.md's own measures: the items of its Deep Truths section, and the
// characters of its core blocks (each line of a block with its newline, as
// the promotion rule counts them; headings and blank lines not counted).
struct CoreMeasure {
  std::size_t truths = 0;
  std::size_t block_chars = 0;
};
CoreMeasure measure_core(std::string_view bytes);

} // namespace engram::engine
