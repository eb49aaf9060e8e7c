// Background: a helper thread's priority lowered (see background.hpp).
#include "base/background.hpp"

#include <sys/resource.h>
#include <unistd.h>

namespace engram {

namespace {

constexpr int k_niceness = 10;

} // namespace

void run_in_background() {
  // On Linux a thread has a niceness of its own, set through its thread id.
  (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), k_niceness);
}

} // namespace engram
