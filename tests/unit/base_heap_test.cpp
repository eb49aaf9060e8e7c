// Tests of running a command's work in large pages: the work runs once, on
// a thread of its own, and its result or its exception comes back as if it
// had run in place. (That the heap is then in large pages is seen in the
// real binary: tests/integration/large_pages_test.cpp.)
#include "base/heap.hpp"

#include <catch2/catch.hpp>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

TEST_CASE("work run in large pages runs once on a thread of its own and returns its result") {
  int runs = 0;
  std::thread::id ran_on;
  // A result that can only be moved, as a consolidation's outcome is.
  const auto result = engram::in_large_pages([&] {
    ++runs;
    ran_on = std::this_thread::get_id();
    return std::make_unique<std::string>("consolidated");
  });
  CHECK(runs == 1);
  CHECK(ran_on != std::this_thread::get_id());
  REQUIRE(result != nullptr);
  CHECK(*result == "consolidated");
}

TEST_CASE("an exception of work run in large pages reaches the caller as it was thrown") {
  const auto failing = [] {
    throw std::runtime_error("the store is busy");
    return 0;
  };
  CHECK_THROWS_WITH(engram::in_large_pages(failing), "the store is busy");
}
