// Tests of running another program: its output and standard error read, its
// environment given, a child past its timeout killed, one that cannot start
// reported.
#include "base/child_process.hpp"

#include <catch2/catch.hpp>
#include <string>

using engram::ChildRun;
using engram::run_child;

TEST_CASE("a child's output is kept up to the limit and its standard error is handed on") {
  std::string said;
  const auto ran = run_child({.argv = {"sh", "-c", "printf 0123456789; printf oops >&2"},
                              .out_limit = 4,
                              .on_error = [&](std::string_view bytes) { said.append(bytes); }});
  CHECK_FALSE(ran.not_started);
  CHECK(ran.succeeded);
  CHECK(ran.out == "0123");
  CHECK(said == "oops");
}

TEST_CASE("a child runs with our environment and the given entries in place of ours") {
  ::setenv("ENGRAM_CHILD_TEST", "ours", 1);
  const auto ran = run_child({.argv = {"sh", "-c", "echo \"$ENGRAM_CHILD_TEST $HOME\""},
                              .environment = {"ENGRAM_CHILD_TEST=given"}});
  ::unsetenv("ENGRAM_CHILD_TEST");
  CHECK(ran.out == "given " + std::string(std::getenv("HOME")) + "\n");
}

TEST_CASE("a child that fails, runs past its timeout or cannot start is told apart") {
  CHECK_FALSE(run_child({.argv = {"sh", "-c", "exit 3"}}).succeeded);
  const auto slow = run_child({.argv = {"sleep", "30"}, .timeout = std::chrono::seconds(1)});
  CHECK(slow.timed_out);
  CHECK_FALSE(slow.succeeded);
  const auto missing = run_child({.argv = {"engram-no-such-program"}});
  REQUIRE(missing.not_started);
  CHECK_THAT(*missing.not_started, Catch::Contains("No such file"));
}
