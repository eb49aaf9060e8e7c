// Tally: the usage log summed per memory file — how often recall returned it,
// how often an agent said it helped or did not, and the last day it was used.
#pragma once

#include "engram/date.hpp"
#include "usage/log.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace engram::usage {

// What the log says of one memory file.
struct Tally {
  std::int64_t uses = 0;      // recall events that returned it
  std::int64_t helpful = 0;   // feedback --helpful
  std::int64_t unhelpful = 0; // feedback --unhelpful
  Date last{1970, 1, 1};      // the latest event naming it
  std::size_t events = 0;     // how many events name it

  // Equal when every field is.
  bool operator==(const Tally&) const = default;
};

// Sums `events` per store-relative path; a file named twice by one event counts once.
std::map<std::string, Tally> tally(const std::vector<Event>& events);

} // namespace engram::usage
