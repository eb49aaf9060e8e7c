// daemon::EventLoop: descriptors, the one timer and wake-ups, one step at a time.
#include "daemon/event_loop.hpp"

#include <catch2/catch.hpp>
#include <thread>
#include <unistd.h>

using engram::daemon::Clock;
using engram::daemon::EventLoop;
using namespace std::chrono_literals;

TEST_CASE("an idle daemon loop with no deadline armed has nothing to do") {
  EventLoop loop;
  loop.arm(std::nullopt, Clock::now());
  CHECK(loop.step(0ms) == 0);
  CHECK_FALSE(loop.timer_fired());
}

TEST_CASE("a readable descriptor runs its handler on the daemon loop") {
  EventLoop loop;
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  int calls = 0;
  loop.add(pipe_fds[0], [&](std::uint32_t) {
    char byte = 0;
    CHECK(::read(pipe_fds[0], &byte, 1) == 1);
    ++calls;
  });
  CHECK(::write(pipe_fds[1], "x", 1) == 1);
  CHECK(loop.step(1000ms) == 1);
  CHECK(calls == 1);
  loop.remove(pipe_fds[0]);
  CHECK(::write(pipe_fds[1], "x", 1) == 1);
  CHECK(loop.step(0ms) == 0);
  CHECK(calls == 1);
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

TEST_CASE("the daemon loop's timer fires at the armed deadline, and a passed one at once") {
  EventLoop loop;
  const auto now = Clock::now();
  loop.arm(now + 20ms, now);
  CHECK(loop.step(0ms) == 0);
  CHECK(loop.step(2000ms) == 1);
  CHECK(loop.timer_fired());

  loop.arm(now - 1s, Clock::now());
  CHECK(loop.step(2000ms) == 1);
  CHECK(loop.timer_fired());

  loop.arm(Clock::now() + 10ms, Clock::now());
  loop.arm(std::nullopt, Clock::now()); // disarmed again: nothing fires
  CHECK(loop.step(50ms) == 0);
}

TEST_CASE("another thread can wake a waiting daemon loop") {
  EventLoop loop;
  std::thread waker([&] {
    std::this_thread::sleep_for(10ms);
    loop.wake();
  });
  const auto started = Clock::now();
  CHECK(loop.step(10'000ms) == 1);
  CHECK(Clock::now() - started < 5s);
  waker.join();
}
