// Parallel. Items are handed out one at a time from a shared counter, so a
// slow item does not hold back a thread's share of the rest.
#include "base/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace engram {

namespace {

// for_each_index on at most `most` threads.
void run_on(std::size_t most, std::size_t count, std::size_t per_thread,
            const std::function<void(std::size_t)>& work) {
  const std::size_t threads =
      std::min<std::size_t>(most, count / std::max<std::size_t>(per_thread, 1));
  if (threads <= 1) {
    for (std::size_t i = 0; i < count; ++i) {
      work(i);
    }
    return;
  }
  std::atomic<std::size_t> next{0};
  std::vector<std::exception_ptr> thrown(threads);
  const auto run = [&](std::size_t thread) {
    try {
      for (auto i = next++; i < count; i = next++) {
        work(i);
      }
    } catch (...) {
      thrown[thread] = std::current_exception();
      next = count; // the others stop too
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (std::size_t t = 1; t < threads; ++t) {
      helpers.emplace_back(run, t);
    }
    run(0);
  } // joined
  for (const auto& error : thrown) {
    if (error) {
      std::rethrow_exception(error);
    }
  }
}

} // namespace

void for_each_index(std::size_t count, std::size_t per_thread,
                    const std::function<void(std::size_t)>& work) {
  run_on(std::max(1U, std::thread::hardware_concurrency()), count, per_thread, work);
}

void for_each_waiting(std::size_t count, std::size_t per_thread, std::size_t threads,
                      const std::function<void(std::size_t)>& work) {
  run_on(std::max<std::size_t>(threads, 1), count, per_thread, work);
}

} // namespace engram
