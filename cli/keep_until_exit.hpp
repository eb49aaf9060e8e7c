// What a command leaves to the process's exit instead of freeing: the parsed
// model of a large store, a full run's plan and record, and what the rules
// derived take a noticeable time to free, piece by piece, while the exit
// gives all of it back at once. What is kept stays reachable (from a list
// that is never freed), so a leak checker does not report it.
#pragma once

#include <memory>
#include <utility>
#include <vector>

namespace engram::cli {

// Keeps `object` alive until the process exits; only for a command that is
// about to return, and for objects whose destructors do nothing but free.
inline void keep_until_exit(std::shared_ptr<const void> object) {
  static auto* const kept = new std::vector<std::shared_ptr<const void>>();
  kept->push_back(std::move(object));
}

} // namespace engram::cli
