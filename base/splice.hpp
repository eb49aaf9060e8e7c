// Splice: `removed` elements of a vector at a position replaced by others,
// as an edit of a body replaces a range of its sections or claims.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

namespace engram {

// Replaces `removed` elements of `list` at `at` with `added`, moved in.
template <typename T>
void splice(std::vector<T>& list, std::size_t at, std::size_t removed, std::vector<T>& added) {
  const auto from = list.begin() + static_cast<std::ptrdiff_t>(at);
  const auto kept = std::min(removed, added.size());
  std::move(added.begin(), added.begin() + static_cast<std::ptrdiff_t>(kept), from);
  if (added.size() > kept) {
    list.insert(from + static_cast<std::ptrdiff_t>(kept),
                std::make_move_iterator(added.begin() + static_cast<std::ptrdiff_t>(kept)),
                std::make_move_iterator(added.end()));
  } else {
    list.erase(from + static_cast<std::ptrdiff_t>(kept),
               from + static_cast<std::ptrdiff_t>(removed));
  }
}

} // namespace engram
