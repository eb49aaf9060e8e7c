// A running job's progress, from the worker to the loop (see job_progress.hpp).
#include "daemon/job_progress.hpp"

namespace engram::daemon {

JobProgress::JobProgress(std::function<void()> wake, std::chrono::milliseconds every)
    : m_wake(std::move(wake)), m_every(every) {}

void JobProgress::update(std::string_view step, std::size_t done, std::size_t total,
                         std::string_view units) {
  const auto now = std::chrono::steady_clock::now();
  bool wake = false;
  {
    const std::lock_guard lock(m_mutex);
    m_latest = ProgressReport{std::string(step), done, total, std::string(units)};
    if (!m_woken || now - *m_woken >= m_every) {
      m_woken = now;
      wake = true;
    }
  }
  if (wake) {
    m_wake(); // outside the lock: the loop takes the report under it
  }
}

std::optional<ProgressReport> JobProgress::take() {
  const std::lock_guard lock(m_mutex);
  std::optional<ProgressReport> taken;
  taken.swap(m_latest);
  return taken;
}

} // namespace engram::daemon
