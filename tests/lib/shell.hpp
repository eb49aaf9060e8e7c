// Test helper for unit tests that ask git itself: a shell command's output
// and whether it succeeded. Header-only, like temp_dir.hpp.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <sys/wait.h>

namespace engram::test {

// What a shell command printed (stdout and stderr), and whether it exited 0.
struct Shell {
  std::string out;
  bool ok = false;
};

// Runs `command` with /bin/sh and waits for it.
inline Shell shell(const std::string& command) {
  Shell result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    throw std::runtime_error("cannot run: " + command);
  }
  char buffer[4096];
  while (const auto n = std::fread(buffer, 1, sizeof buffer, pipe)) {
    result.out.append(buffer, n);
  }
  const int status = ::pclose(pipe);
  result.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return result;
}

} // namespace engram::test
