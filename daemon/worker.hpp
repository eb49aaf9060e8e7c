// Worker: the one thread consolidations run on, so the loop keeps reading
// events (and answering the control socket) while the rules work. Jobs run one
// at a time in the order given; each result is queued for the loop, which a
// callback wakes.
#pragma once

#include "daemon/job.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace engram::daemon {

// A thread that runs jobs and hands back their results.
class Worker {
public:
  // Starts the thread. `done` is called on the worker thread after each job,
  // to wake the loop; it must be thread-safe (EventLoop::wake is).
  Worker(Consolidator consolidator, std::function<void()> done);
  // Lets the running job finish, drops the queued ones, and joins the thread.
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Queues a job.
  void submit(Job job);

  // The results of the jobs finished since the last call, in order.
  std::vector<JobResult> take_results();

  // Drops the queued jobs (the running one finishes) and refuses new ones;
  // returns the jobs dropped, so their waiters can be told.
  std::vector<Job> stop();

  // True while a job is queued or running, or a result waits to be taken.
  bool busy() const;

private:
  // The thread's body: runs jobs until stopped.
  void work();

  Consolidator m_consolidator;
  std::function<void()> m_done;
  mutable std::mutex m_mutex;
  std::condition_variable m_wake;
  std::deque<Job> m_queue;
  std::vector<JobResult> m_results;
  bool m_running = false;  // a job is being run now
  bool m_stopping = false; // no more jobs start
  std::thread m_thread;    // last: starts after everything it uses exists
};

} // namespace engram::daemon
