// Running git itself (see run_git.hpp).
#include "git/run_git.hpp"

#include "base/platform.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <functional>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace engram::git {
namespace {

constexpr std::size_t k_out_limit = std::size_t{1} << 20;
constexpr std::size_t k_said_limit = 4096;

// The environment git runs with: ours, prompts off.
std::vector<std::string> git_environment() {
  std::vector<std::string> out;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (std::strncmp(*entry, "GIT_TERMINAL_PROMPT=", 20) != 0) {
      out.emplace_back(*entry);
    }
  }
  out.emplace_back("GIT_TERMINAL_PROMPT=0");
  return out;
}

// Pointers to each string, and a null at the end, as exec wants them.
std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& text : strings) {
    out.push_back(text.data());
  }
  out.push_back(nullptr);
  return out;
}

// Where git's standard error goes: appended to `said` as it is, or sorted
// into progress and what git said.
using ErrorSink = std::function<void(std::string_view)>;

// Reads the child's standard output and error until both close or `deadline`
// passes (then false). Output past the limit is read and dropped, so git
// never blocks. A terminal's reader fails with EIO once git is gone: closed too.
bool read_both(int out_fd, int err_fd, GitOutcome& outcome, const ErrorSink& err_sink,
               std::optional<std::chrono::steady_clock::time_point> deadline) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  int open = 2;
  char buffer[4096];
  while (open > 0) {
    int wait_ms = -1;
    if (deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          *deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        return false;
      }
      wait_ms = static_cast<int>(left.count());
    }
    if (::poll(fds, 2, wait_ms) < 0) {
      if (errno == EINTR) {
        continue;
      }
      return false;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) {
        continue;
      }
      const auto got = ::read(fds[i].fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) {
        continue;
      }
      if (got <= 0) {
        fds[i].fd = -1;
        --open;
        continue;
      }
      const auto bytes = static_cast<std::size_t>(got);
      if (i == 1) {
        err_sink(std::string_view(buffer, bytes));
        continue;
      }
      outcome.out.append(buffer, std::min(bytes, k_out_limit - std::min(k_out_limit,
                                                                        outcome.out.size())));
    }
  }
  return true;
}

// Standard error as a pipe, or as a terminal when progress is wanted and one
// can be had: both ends, reader first, closed on exec.
bool error_channel(const GitRun& run, int (&ends)[2]) {
  if (run.progress) {
    const ErrorTerminal terminal = open_error_terminal();
    if (terminal.reader >= 0) {
      ends[0] = terminal.reader;
      ends[1] = terminal.writer;
      return true;
    }
  }
  return platform::cloexec_pipe(ends);
}

// Reads what git writes until it is done or its time is up (then false), and
// closes both descriptors.
bool read_output(const GitRun& run, int out_fd, int err_fd, GitOutcome& outcome) {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (run.timeout) {
    deadline = std::chrono::steady_clock::now() + *run.timeout;
  }
  std::optional<ErrorSorter> sorter;
  if (run.progress) {
    sorter.emplace(run.progress, outcome.said, k_said_limit);
  }
  const ErrorSink err_sink = [&](std::string_view bytes) {
    if (sorter) {
      sorter->feed(bytes);
      return;
    }
    outcome.said.append(bytes.substr(0, k_said_limit - std::min(k_said_limit,
                                                                  outcome.said.size())));
  };
  const bool finished = read_both(out_fd, err_fd, outcome, err_sink, deadline);
  if (sorter) {
    sorter->finish();
  }
  ::close(out_fd);
  ::close(err_fd);
  return finished;
}

} // namespace

GitOutcome run_git(const GitRun& run) {
  GitOutcome outcome;
  std::vector<std::string> args{"git", "--git-dir=" + run.gitdir.string()};
  args.insert(args.end(), run.args.begin(), run.args.end());
  auto environment = git_environment();
  if (run.progress) {
    environment.emplace_back("GIT_PROGRESS_DELAY=0"); // from the start, not after 2 s
  }
  auto argv = pointers(args);
  auto envp = pointers(environment);
  int out_pipe[2];
  int err_pipe[2];
  if (!platform::cloexec_pipe(out_pipe)) {
    outcome.said = fmt::format("cannot run git: {}", std::strerror(errno));
    return outcome;
  }
  if (!error_channel(run, err_pipe)) {
    outcome.said = fmt::format("cannot run git: {}", std::strerror(errno));
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return outcome;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  pid_t child = -1;
  const int spawned = ::posix_spawnp(&child, "git", &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (spawned != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    outcome.said = fmt::format("cannot run git: {}", std::strerror(spawned));
    return outcome;
  }
  if (run.niceness != 0) {
    (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(child), run.niceness);
  }
  const bool finished = read_output(run, out_pipe[0], err_pipe[0], outcome);
  if (!finished) {
    ::kill(child, SIGKILL);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  while (!outcome.said.empty() && outcome.said.back() == '\n') {
    outcome.said.pop_back();
  }
  if (!finished) {
    outcome.said = fmt::format("git {} gave no answer in {} s and was stopped",
                               run.args.empty() ? "" : run.args.front(),
                               run.timeout ? run.timeout->count() : 0);
    return outcome;
  }
  outcome.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return outcome;
}

} // namespace engram::git
