// daemon::StoreLock: one daemon per store, and the second is told the first's pid.
#include "daemon/store_lock.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <unistd.h>

using engram::daemon::StoreLock;
using engram::test::read_file;
using engram::test::TempDir;

TEST_CASE("the first daemon lock holds the store and a second is refused naming the holder's pid") {
  const TempDir store;
  const auto state = store / ".engram";
  auto first = StoreLock::take(state);
  REQUIRE(first.has_value());
  CHECK(read_file(state / "daemon.lock") == fmt::format("{}\n", ::getpid()));
  CHECK(StoreLock::holder(state) == ::getpid());

  const auto second = StoreLock::take(state);
  REQUIRE_FALSE(second.has_value());
  CHECK_THAT(second.error(), Catch::Contains(fmt::format("pid {}", ::getpid())));
}

TEST_CASE("a released daemon lock can be taken again and nobody holds it in between") {
  const TempDir store;
  const auto state = store / ".engram";
  {
    auto first = StoreLock::take(state);
    REQUIRE(first.has_value());
  }
  CHECK(StoreLock::holder(state) == 0);
  CHECK(StoreLock::take(state).has_value());
}
