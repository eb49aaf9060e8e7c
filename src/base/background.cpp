// Background: a helper thread's priority lowered (see background.hpp).
#include "base/background.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

namespace engram {

namespace {

constexpr int k_niceness = 10;

} // namespace

void run_in_background() {
  // On Linux a thread has a policy and a niceness of its own, set through its
  // thread id. SCHED_BATCH first: the kernel then never lets the thread's
  // wakeup preempt the running thread, which a niceness alone does not stop.
  const auto self = static_cast<pid_t>(::gettid());
  const sched_param normal{};
  (void)::sched_setscheduler(self, SCHED_BATCH, &normal);
  (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(self), k_niceness);
}

} // namespace engram
