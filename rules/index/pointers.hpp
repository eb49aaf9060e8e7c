// Pointer lines in an agent's own index (Claude Code's MEMORY.md): the agent
// links each topic file with a `- [Title](file.md) — hook` line and loads the
// index, not the files, at the start of a session. A memory the index does
// not link is one the agent never finds, so a line is appended for each; a
// line the agent wrote is never rewritten. Past what the agent's loader reads
// (its first lines and bytes), lines go to an overflow topic file that the
// index links once, instead of being cut off where the agent cannot see.
#pragma once

#include "engram/rule.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <cstdint>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace engram_index {

// The topic file that holds the pointer lines past the loader's limits.
inline constexpr std::string_view k_overflow = "memory_overflow.md";

// The files `text`'s Markdown links name, as written.
inline std::set<std::string> linked_targets(const std::string& text) {
  static const std::regex link(R"(\]\(([^)\s]+)\))");
  std::set<std::string> targets;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator();
       ++it) {
    std::string target = (*it)[1].str();
    if (target.starts_with("./")) {
      target.erase(0, 2);
    }
    targets.insert(target);
  }
  return targets;
}

// The lines of `text`, each without its line end.
inline std::vector<std::string> lines_of(std::string_view text) {
  auto lines = engram::text::split_lines(text);
  for (auto& line : lines) {
    line = std::string(engram::text::without_eol(line));
  }
  return lines;
}

// What the index and the overflow file become.
struct PointerPlan {
  std::vector<std::string> index;      // the index's lines, in order
  std::vector<std::string> overflow;   // lines to append to the overflow file
  std::vector<std::string> linked;     // paths given a line in the index
  std::vector<std::string> overflowed; // paths given a line in the overflow file
  std::size_t moved = 0;               // the agent's lines moved past the limit
};

// Fits `lines` (the agent's index with `added` after it) under `max_lines`
// and `max_bytes` (0: no limit). What does not fit, from the end (the lines
// the loader would not read), goes to the overflow; the index keeps room for
// the line that links it, `overflow_line`, unless it links it already.
inline PointerPlan fit_pointers(std::vector<std::string> lines,
                                const std::vector<std::pair<std::string, std::string>>& added,
                                std::size_t max_lines, std::size_t max_bytes,
                                const std::string& overflow_line, bool links_overflow) {
  PointerPlan plan;
  const std::size_t agent_lines = lines.size();
  for (const auto& [path, line] : added) {
    lines.push_back(line);
  }
  const auto fits = [&](std::size_t count, std::size_t bytes) {
    return (max_lines == 0 || count <= max_lines) && (max_bytes == 0 || bytes <= max_bytes);
  };
  std::size_t bytes = 0;
  for (const auto& line : lines) {
    bytes += line.size() + 1;
  }
  std::size_t keep = lines.size();
  if (!fits(keep, bytes)) {
    // Room for the overflow's own line, unless the index has it already.
    const std::size_t extra_lines = links_overflow ? 0 : 1;
    const std::size_t extra_bytes = links_overflow ? 0 : overflow_line.size() + 1;
    while (keep > 0 && !fits(keep + extra_lines, bytes + extra_bytes)) {
      --keep;
      bytes -= lines[keep].size() + 1;
    }
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i < keep) {
      plan.index.push_back(lines[i]);
    } else {
      plan.overflow.push_back(lines[i]);
      plan.moved += i < agent_lines ? 1 : 0;
    }
  }
  for (std::size_t i = 0; i < added.size(); ++i) {
    (agent_lines + i < keep ? plan.linked : plan.overflowed).push_back(added[i].first);
  }
  if (!plan.overflow.empty() && !links_overflow) {
    plan.index.push_back(overflow_line);
  }
  return plan;
}

} // namespace engram_index
