// JobProgress: how far a running consolidation has got, told by the engine on
// the worker thread and read by the loop, which sends it to the clients that
// wait for the run and asked to see it (`engram consolidate` on a terminal).
#pragma once

#include "daemon/protocol.hpp"
#include "engine/progress.hpp"

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>

namespace engram::daemon {

// The latest progress report of one job, handed from the worker to the loop.
class JobProgress : public engine::Progress {
public:
  // `wake` wakes the loop (thread-safe): on the first report, then at most
  // once per `every`; a report in between waits for the next wake.
  explicit JobProgress(std::function<void()> wake,
                       std::chrono::milliseconds every = std::chrono::milliseconds(250));

  // On the worker thread: keeps the report as the latest.
  void update(std::string_view step, std::size_t done, std::size_t total,
              std::string_view units) override;

  // On the loop's thread: the latest report not taken yet, or nullopt.
  std::optional<ProgressReport> take();

private:
  std::function<void()> m_wake;
  std::chrono::milliseconds m_every;
  std::mutex m_mutex;
  std::optional<ProgressReport> m_latest; // not taken yet
  std::optional<std::chrono::steady_clock::time_point> m_woken; // when the loop was last woken
};

} // namespace engram::daemon
