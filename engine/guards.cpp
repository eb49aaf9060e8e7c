// Guards. CORE.md is read the way the promotion rule renders it (see
// rules/promotion/core_file.hpp): "## Deep Truths" lists one "- " line per
// truth (held-back truths are comments, not items); every other "## " section
// is a core block whose lines count with their newlines.
#include "engine/guards.hpp"

#include "base/utf8.hpp"

#include <algorithm>

namespace engram::engine {

namespace {

constexpr std::string_view k_truths_heading = "## Deep Truths";

// The number of lines of a text: a last line without a newline counts too.
std::size_t count_lines(std::string_view text) {
  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  return newlines + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

} // namespace

CoreMeasure measure_core(std::string_view bytes) {
  enum class Section { before, truths, block };
  CoreMeasure measure;
  Section section = Section::before;
  bool in_comment = false;
  std::size_t start = 0;
  while (start < bytes.size()) {
    auto end = bytes.find('\n', start);
    if (end == std::string_view::npos) {
      end = bytes.size();
    }
    auto line = bytes.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    // A comment (an evidence or held-back note) is not shown to the agent: not counted.
    if (in_comment || line.starts_with("<!--") || line.starts_with("  <!--")) {
      in_comment = line.find("-->") == std::string_view::npos;
      continue;
    }
    if (line.starts_with("## ")) {
      section = line == k_truths_heading ? Section::truths : Section::block;
      continue;
    }
    if (line.empty()) {
      continue;
    }
    if (section == Section::truths && line.starts_with("- ")) {
      ++measure.truths;
    } else if (section == Section::block) {
      measure.block_chars += count_chars(line) + 1;
    }
  }
  return measure;
}

std::vector<std::string> guarded_paths(const store::Layout& layout) {
  return {layout.working, layout.memory_index, layout.core};
}

std::vector<GuardReading> read_guards(std::string_view path, const std::optional<std::string>& bytes,
                                      const store::Layout& layout,
                                      const config::Settings& settings) {
  const std::string where(path);
  const bool present = bytes.has_value();
  const std::string_view text = present ? std::string_view(*bytes) : std::string_view();
  if (path == layout.working) {
    return {{"working", where, "chars", present, count_chars(text),
             settings.get_int("guard.working_chars")}};
  }
  if (path == layout.memory_index) {
    return {{"memory_index", where, "lines", present, count_lines(text),
             settings.get_int("guard.memory_lines")}};
  }
  if (path == layout.core) {
    const auto core = measure_core(text);
    return {{"core_truths", where, "truths", present, core.truths,
             settings.get_int("guard.deep_truths")},
            {"core_blocks", where, "chars", present, core.block_chars,
             settings.get_int("guard.core_chars")}};
  }
  return {};
}

} // namespace engram::engine
