// A real engram run in the background that a test can stop at a named
// point (ENGRAM_TEST_PAUSE_AT: it stops itself with SIGSTOP, the test sees
// the stop with waitpid(WUNTRACED)) and let go on with SIGCONT. Nothing is timed.
#pragma once

#include "lib/process.hpp"
#include "lib/temp_dir.hpp"

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace engram::test {

// A real engram run in the background, killed and reaped if a test leaves it behind.
class Run {
public:
  // Starts `engram args...` in the sandbox, paused at `pause_at` when not empty.
  Run(const Sandbox& sandbox, const std::string& name, const std::vector<std::string>& args,
      const std::string& pause_at = {})
      : m_out(sandbox.work(name + ".out")), m_err(sandbox.work(name + ".err")) {
    std::vector<std::string> command{ENGRAM_BINARY};
    command.insert(command.end(), args.begin(), args.end());
    Environment changes = sandbox.engram_environment();
    if (!pause_at.empty()) {
      changes["ENGRAM_TEST_PAUSE_AT"] = pause_at;
    }
    m_pid = spawn(command, changes, m_out, m_err);
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;
  ~Run() {
    if (m_pid > 0) {
      ::kill(m_pid, SIGKILL);
      int status = 0;
      ::waitpid(m_pid, &status, 0);
    }
  }

  // Waits until the run stops itself at its pause point; false when it ended instead.
  bool wait_paused() {
    int status = 0;
    while (::waitpid(m_pid, &status, WUNTRACED) < 0) {
      if (errno != EINTR) {
        return false;
      }
    }
    if (WIFSTOPPED(status)) {
      return true;
    }
    m_pid = -1; // it ended: reaped
    return false;
  }

  // Lets a paused run go on.
  void resume() const { ::kill(m_pid, SIGCONT); }

  // The run's process id, for reading what /proc says of it while it is paused.
  pid_t pid() const { return m_pid; }

  // Waits for the run to end; what it left behind.
  Result finish() {
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0) {
      if (errno != EINTR) {
        throw std::runtime_error("waitpid failed");
      }
    }
    m_pid = -1;
    Result result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = read_file(m_out);
    result.err = read_file(m_err);
    return result;
  }

private:
  std::filesystem::path m_out;
  std::filesystem::path m_err;
  pid_t m_pid = -1;
};

} // namespace engram::test
