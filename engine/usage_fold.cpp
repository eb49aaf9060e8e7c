// Usage fold: counts are added to what the file already says, so a fold is
// the sum of every log ever taken; the date only moves forward.
#include "engine/usage_fold.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <fmt/format.h>

namespace engram::engine {

namespace {

// The layers whose memories recall returns and feedback names.
bool is_usage_layer(const store::Layout& layout, const std::string& path) {
  const auto layer = layout.classify(path);
  return layer && std::find(std::begin(k_usage_layers), std::end(k_usage_layers), *layer) !=
                      std::end(k_usage_layers);
}

// A count field's value: 0 when absent; nullopt when it is not a whole number.
std::optional<std::int64_t> count_of(const Workspace& workspace, const std::string& path,
                                     const char* key) {
  const auto text = workspace.field(path, key);
  if (!text) {
    return std::int64_t{0};
  }
  std::int64_t value = 0;
  const auto* end = text->data() + text->size();
  const auto [ptr, error] = std::from_chars(text->data(), end, value);
  if (error != std::errc() || ptr != end || value < 0) {
    return std::nullopt;
  }
  return value;
}

} // namespace

void fold_usage(Workspace& workspace, const store::Layout& layout,
                const std::map<std::string, usage::Tally>& tallies) {
  workspace.begin_rule(k_usage_actor);
  for (const auto& [path, t] : tallies) {
    if (!workspace.exists(path) || !is_usage_layer(layout, path)) {
      workspace.record(Action{"", "dropped", "", "", path,
                              fmt::format("{} usage entr{} name{} no memory of the store", t.events,
                                          t.events == 1 ? "y" : "ies",
                                          t.events == 1 ? "s" : "")});
      continue;
    }
    struct Count {
      const char* key;
      std::int64_t add;
    };
    std::string problems;
    std::string folded;
    for (const Count& count : {Count{"uses", t.uses}, Count{"helpful", t.helpful},
                               Count{"unhelpful", t.unhelpful}}) {
      if (count.add == 0) {
        continue;
      }
      const auto now = count_of(workspace, path, count.key);
      if (!now) {
        workspace.diagnose(path, workspace.line_of(path, count.key),
                           fmt::format("`{}` is not a whole number; {} more not added", count.key,
                                       count.add));
        problems += fmt::format("{}{} left as written", problems.empty() ? "" : ", ", count.key);
        continue;
      }
      workspace.set_field(path, count.key, std::to_string(*now + count.add));
      folded += fmt::format("{}{} +{}", folded.empty() ? "" : ", ", count.key, count.add);
    }
    const auto written = workspace.field(path, "last-accessed");
    const auto last = workspace.date(path, "last-accessed");
    if (written && !last) {
      workspace.diagnose(path, workspace.line_of(path, "last-accessed"),
                         "`last-accessed` is not a date YYYY-MM-DD; left as written");
      problems += fmt::format("{}last-accessed left as written", problems.empty() ? "" : ", ");
    } else if (!last || *last < t.last) {
      workspace.set_field(path, "last-accessed", t.last.to_string());
      folded += fmt::format("{}last accessed {}", folded.empty() ? "" : ", ", t.last.to_string());
    }
    if (!problems.empty()) {
      folded += (folded.empty() ? "" : "; ") + problems;
    }
    workspace.record(Action{"", "counted", "", "", path, folded});
  }
}

} // namespace engram::engine
