// Running another program: waited for, its output read as it comes (git
// for what engram leaves to it), or started and left to run on its own (a
// detached `engram pack`). POSIX calls only.
#pragma once

#include "base/expected.hpp"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace engram {

// Where a waited-for child's standard error goes.
enum class ErrorStream {
  pipe,     // a pipe
  terminal, // a pseudo-terminal, for a program that reports progress only on one (a pipe when
            // none can be had)
};

// How to run one program and wait for it.
struct ChildRun {
  std::vector<std::string> argv = {};        // argv[0] is looked up in PATH
  std::vector<std::string> environment = {}; // "NAME=value", in place of ours of the same name
  int niceness = 0;                          // added to the child's priority
  // Killed after this long: a child that stops answering must not stop its caller.
  std::optional<std::chrono::seconds> timeout = {};
  std::size_t out_limit = std::size_t{1} << 20; // standard output kept; the rest read and dropped
  ErrorStream error_stream = ErrorStream::pipe;
  // Given each piece of standard error as it comes; nothing keeps it otherwise.
  std::function<void(std::string_view)> on_error = {};
};

// How a waited-for child ended.
struct ChildOutcome {
  std::optional<std::string> not_started; // why it could not be started
  bool timed_out = false;                 // killed at its timeout
  bool succeeded = false;                 // exited with status 0
  std::string out;                        // its standard output, up to the limit
};

// Runs `run.argv` with its standard input /dev/null and waits for it,
// reading its output until it closes both streams or its time is up.
ChildOutcome run_child(const ChildRun& run);

// Starts `program` with `argv` and our environment in a session of its own,
// every standard stream /dev/null, so it outlives its caller and holds
// nothing of the caller's; does not wait for it. Its pid, or why it could
// not be started.
[[nodiscard]] Expected<pid_t, std::string>
start_detached(const std::filesystem::path& program, std::vector<std::string> argv, int niceness);

} // namespace engram
