// Parallel: a loop over indexes run on every core, for work whose items are
// independent (reading and parsing files).
#pragma once

#include <cstddef>
#include <functional>

namespace engram {

// Calls `work(i)` for every i below `count`, on as many threads as there are
// cores, but no more than one per `per_thread` items (fewer items are not
// worth a thread), the calling thread among them. Returns when every call
// has; the first exception a call threw is thrown again then, and the calls
// not yet started are not made.
void for_each_index(std::size_t count, std::size_t per_thread,
                    const std::function<void(std::size_t)>& work);

} // namespace engram
