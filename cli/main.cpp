// The `engram` executable: runs the command line and turns the failures that
// escape it into `engram: message` and a non-zero exit status.
#include "base/error.hpp"
#include "base/platform.hpp"
#include "cli/app.hpp"

#include <cstdio>
#include <exception>
#include <fmt/format.h>

int main(int argc, char** argv) {
  engram::platform::remember_program(argc > 0 ? argv[0] : nullptr);
  try {
    return engram::cli::run(argc, argv);
  } catch (const engram::Fatal& fatal) {
    fmt::print(stderr, "engram: {}\n", fatal.what());
  } catch (const engram::Error& error) {
    fmt::print(stderr, "engram: {}\n", error.what());
  } catch (const std::exception& error) {
    // A bug rather than a reported failure, but still a message, not an abort.
    fmt::print(stderr, "engram: unexpected error: {}\n", error.what());
  }
  return engram::cli::k_exit_problems;
}
