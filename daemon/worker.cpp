// Worker: a queue, a condition variable and one std::thread.
#include "daemon/worker.hpp"

namespace engram::daemon {

Worker::Worker(Consolidator consolidator, std::function<void()> done)
    : m_consolidator(std::move(consolidator)), m_done(std::move(done)),
      m_thread([this] { work(); }) {}

Worker::~Worker() {
  stop();
  {
    const std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) {
    m_thread.join();
  }
}

void Worker::submit(Job job) {
  {
    const std::lock_guard lock(m_mutex);
    if (m_stopping) {
      return;
    }
    m_queue.push_back(std::move(job));
  }
  m_wake.notify_one();
}

std::vector<JobResult> Worker::take_results() {
  const std::lock_guard lock(m_mutex);
  std::vector<JobResult> results;
  results.swap(m_results);
  return results;
}

std::vector<Job> Worker::stop() {
  std::vector<Job> dropped;
  {
    const std::lock_guard lock(m_mutex);
    m_stopping = true;
    dropped.assign(std::make_move_iterator(m_queue.begin()),
                   std::make_move_iterator(m_queue.end()));
    m_queue.clear();
  }
  m_wake.notify_all();
  return dropped;
}

bool Worker::busy() const {
  const std::lock_guard lock(m_mutex);
  return m_running || !m_queue.empty() || !m_results.empty();
}

void Worker::work() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
      if (m_queue.empty()) {
        return; // stopping, nothing left to run
      }
      job = std::move(m_queue.front());
      m_queue.pop_front();
      m_running = true;
    }
    JobResult result = m_consolidator(job);
    {
      const std::lock_guard lock(m_mutex);
      m_results.push_back(std::move(result));
      m_running = false;
    }
    m_done();
  }
}

} // namespace engram::daemon
