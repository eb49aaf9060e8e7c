// The heap: the process's allocator tuned for how the process will use it.
// The engram executable runs on mimalloc (cmake/Dependencies.cmake), linked
// into the executable only, so its options are found at run time; a process
// without it (sanitizer builds, the tests) keeps glibc's malloc as it is.
#pragma once

#include <exception>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

namespace engram {

// For a command that builds a whole store's model once and exits
// (`consolidate`, `health`): the heap grows in 2 MiB pages (transparent huge
// pages, where the kernel gives them on request) and each thread's first
// segment is committed at once. Every 4 KiB page a process touches first
// costs a page fault, about 10 µs each on the virtual machines engram was
// measured on: a 2,500-file consolidation touched 84 MB in 21,000 faults,
// 3,300 with this, and took 15% less time (bench/RESULTS.md, scenario 1).
// Only memory mapped from then on is in large pages, and the main thread's
// heap was mapped before main ran: the work itself is done on a thread of its
// own (`in_large_pages`). Not for the daemon, whose idle memory is measured
// page by page.
void heap_in_large_pages();

// Runs `work` with the heap in large pages (above), on a new thread, whose
// heap is made after the options are set; its result, or its exception.
template <typename Work> std::invoke_result_t<Work&> in_large_pages(Work&& work) {
  heap_in_large_pages();
  std::optional<std::invoke_result_t<Work&>> result;
  std::exception_ptr failed;
  std::thread([&] {
    try {
      result.emplace(work());
    } catch (...) {
      failed = std::current_exception();
    }
  }).join();
  if (failed) {
    std::rethrow_exception(failed);
  }
  return std::move(*result);
}

// For the daemon, for its whole life: freed pages go back to the system as
// they are freed. mimalloc otherwise holds them for 25-500 ms, and returns
// them only at the thread's next allocations after that: a thread gone quiet
// — a daemon's worker once a store is let go — keeps them for ever (66 MB of
// a 10,000-file store's 194, where giving them back at once leaves 27).
// Measured on the daemon's one-file cycles: no more CPU, and 65 page faults
// in five cycles instead of 48.
void heap_gives_back_at_once();

} // namespace engram
