// Usage: how much a memory was used and whether it helped, as the usage log
// folds it into frontmatter — `last-accessed: YYYY-MM-DD`, `uses: N`,
// `helpful: N`, `unhelpful: N` — read by the rules that act on use
// (forgetting, promotion). Header-only and built into each plugin, so a
// plugin still links nothing of engram's. Rules only read these fields.
#pragma once

#include "engram/rule.hpp"
#include "engram/text.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace engram::usage {

// The usage fields of one memory.
struct Usage {
  std::optional<Date> last_accessed; // `last-accessed`
  std::optional<Date> created;       // `created`
  std::int64_t uses = 0;             // `uses`; 0 when absent
  std::int64_t helpful = 0;          // `helpful`; 0 when absent
  std::int64_t unhelpful = 0;        // `unhelpful`; 0 when absent
  bool has_uses = false;             // the file has a `uses` field at all
  std::string problem;               // a field that is not a count ("uses: many"); "" when fine
  std::string problem_field;         // the field `problem` is about

  // The day the memory was last used: `last-accessed`, else `created`.
  std::optional<Date> last_used() const { return last_accessed ? last_accessed : created; }

  // helpful / (helpful + unhelpful); nullopt without any feedback.
  std::optional<double> effectiveness() const {
    const auto rated = helpful + unhelpful;
    if (rated <= 0) {
      return std::nullopt;
    }
    return static_cast<double>(helpful) / static_cast<double>(rated);
  }
};

// A count written as plain decimal digits; nullopt for anything else.
inline std::optional<std::int64_t> parse_count(std::string_view text) {
  if (text.empty() || text.size() > 15) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    value = value * 10 + (c - '0');
  }
  return value;
}

// Reads a memory's usage fields; a field that is not a count is named in `problem`.
inline Usage usage_of(const StoreView& store, const std::string& path) {
  Usage usage;
  usage.last_accessed = store.date(path, "last-accessed");
  usage.created = store.date(path, "created");
  const auto count = [&](std::string_view key, std::int64_t& out) {
    const auto value = store.field(path, key);
    if (!value) {
      return false;
    }
    if (const auto n = parse_count(*value)) {
      out = *n;
    } else if (usage.problem.empty()) {
      usage.problem = "`" + std::string(key) + ": " + *value +
                      "` is not a count (a whole number of 0 or more); usage is not read";
      usage.problem_field = std::string(key);
    }
    return true;
  };
  usage.has_uses = count("uses", usage.uses);
  count("helpful", usage.helpful);
  count("unhelpful", usage.unhelpful);
  return usage;
}

// The 1-based file line of a frontmatter field (`key:` at the start of a
// line), or 1 when it is not found: where a diagnostic about it points.
inline int field_line(const StoreView& store, const std::string& path, std::string_view key) {
  int number = 0;
  for (const auto& line : text::split_lines(store.read(path))) {
    ++number;
    const auto bare = text::without_eol(line);
    if (bare.starts_with(key) && bare.size() > key.size() && bare[key.size()] == ':') {
      return number;
    }
    if (number > 1 && bare == "---") {
      break; // the end of the frontmatter
    }
  }
  return 1;
}

// True when at least one memory has a `uses` field: until then nothing has
// recorded usage, and "never used" means "not measured", not "useless".
inline bool store_has_usage_data(const StoreView& store) {
  for (const Layer layer : k_usage_layers) {
    for (const auto& path : store.files(layer)) {
      if (store.field(path, "uses")) {
        return true;
      }
    }
  }
  return false;
}

} // namespace engram::usage
