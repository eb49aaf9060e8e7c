// Parallel: a loop over indexes run on several threads, for work whose items
// are independent (reading and parsing files, removing them).
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

// for_each_index for calls that mostly wait on the device rather than
// compute (removing files where each removal waits for its blocks to be
// discarded): on up to `threads` threads, whatever the cores, so the waits
// overlap.
void for_each_waiting(std::size_t count, std::size_t per_thread, std::size_t threads,
                      const std::function<void(std::size_t)>& work);

} // namespace engram
