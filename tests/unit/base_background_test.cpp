// Tests of a helper thread put in the background: it becomes a batch thread
// at nice 10, and only it (its siblings and the process keep their priority).
#include "base/background.hpp"

#include <catch2/catch.hpp>
#include <sched.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace {

// The calling thread's policy and niceness.
struct Priority {
  int policy = -1;
  int niceness = -100;
};

Priority own_priority() {
  const auto self = static_cast<pid_t>(::gettid());
  return Priority{::sched_getscheduler(self), ::getpriority(PRIO_PROCESS, static_cast<id_t>(self))};
}

} // namespace

TEST_CASE("a thread run in the background is a batch thread at nice 10, and only it") {
  const Priority before = own_priority();
  Priority helper;
  Priority sibling;
  std::thread([&] {
    engram::run_in_background();
    helper = own_priority();
  }).join();
  std::thread([&] { sibling = own_priority(); }).join();
  CHECK(helper.policy == SCHED_BATCH);
  CHECK(helper.niceness >= 10); // 10, or more for a caller already nicer
  CHECK(sibling.policy == before.policy);
  CHECK(sibling.niceness == before.niceness);
  CHECK(own_priority().policy == before.policy);
  CHECK(own_priority().niceness == before.niceness);
}
