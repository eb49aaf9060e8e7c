// Tally: summing the usage log per file.
#include "usage/tally.hpp"

#include <algorithm>
#include <set>

namespace engram::usage {

std::map<std::string, Tally> tally(const std::vector<Event>& events) {
  std::map<std::string, Tally> out;
  for (const auto& event : events) {
    const std::set<std::string> files(event.files.begin(), event.files.end());
    for (const auto& file : files) {
      Tally& t = out[file];
      ++t.events;
      t.last = t.events == 1 ? event.date : std::max(t.last, event.date);
      if (event.kind == EventKind::recall) {
        ++t.uses;
      } else if (event.helpful) {
        ++t.helpful;
      } else {
        ++t.unhelpful;
      }
    }
  }
  return out;
}

} // namespace engram::usage
