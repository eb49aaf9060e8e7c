// Running another program (see child_process.hpp).
#include "base/child_process.hpp"

#include "base/platform.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace engram {
namespace {

// Our environment with `overrides` in place of the entries of the same names.
std::vector<std::string> environment_with(const std::vector<std::string>& overrides) {
  std::vector<std::string> out;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text = *entry;
    const std::string_view name = text.substr(0, text.find('=') + 1);
    if (std::none_of(overrides.begin(), overrides.end(),
                     [&](const std::string& given) { return given.starts_with(name); })) {
      out.emplace_back(text);
    }
  }
  out.insert(out.end(), overrides.begin(), overrides.end());
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

// A pseudo-terminal's two ends, reader first, both closed on exec; false
// when there is none to be had. ptsname is not reentrant: only a command run
// in the foreground asks for a terminal, never the daemon's threads.
bool open_pseudo_terminal(int (&ends)[2]) {
  const int reader = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (reader < 0) {
    return false;
  }
  const char* name = nullptr;
  if (::fcntl(reader, F_SETFD, FD_CLOEXEC) != 0 || ::grantpt(reader) != 0 ||
      ::unlockpt(reader) != 0 || (name = ::ptsname(reader)) == nullptr) {
    ::close(reader);
    return false;
  }
  const int writer = ::open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (writer < 0) {
    ::close(reader);
    return false;
  }
  ends[0] = reader;
  ends[1] = writer;
  return true;
}

// Reads the child's standard output and error until both close or its time
// is up (then false). Output past the limit is read and dropped, so the
// child never blocks. A terminal's reader fails with EIO once the child is
// gone: closed too.
bool read_both(int out_fd, int err_fd, const ChildRun& run, std::string& out) {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (run.timeout) {
    deadline = std::chrono::steady_clock::now() + *run.timeout;
  }
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
        if (run.on_error) {
          run.on_error(std::string_view(buffer, bytes));
        }
        continue;
      }
      out.append(buffer, std::min(bytes, run.out_limit - std::min(run.out_limit, out.size())));
    }
  }
  return true;
}

// Standard output's and error's pipes (or terminal), reader first, both
// ends closed on exec; why not, when they cannot be made.
std::optional<std::string> make_streams(ErrorStream error_stream, int (&out)[2], int (&err)[2]) {
  if (!platform::cloexec_pipe(out)) {
    return std::strerror(errno);
  }
  if ((error_stream == ErrorStream::terminal && open_pseudo_terminal(err)) ||
      platform::cloexec_pipe(err)) {
    return std::nullopt;
  }
  const int saved = errno;
  ::close(out[0]);
  ::close(out[1]);
  return std::strerror(saved);
}

} // namespace

ChildOutcome run_child(const ChildRun& run) {
  ChildOutcome outcome;
  int out_pipe[2];
  int err_pipe[2];
  if (auto failed = make_streams(run.error_stream, out_pipe, err_pipe)) {
    outcome.not_started = std::move(failed);
    return outcome;
  }
  auto args = run.argv;
  auto environment = environment_with(run.environment);
  auto argv = pointers(args);
  auto envp = pointers(environment);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  pid_t child = -1;
  const int spawned = ::posix_spawnp(&child, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (spawned != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    outcome.not_started = std::strerror(spawned);
    return outcome;
  }
  if (run.niceness != 0) {
    (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(child), run.niceness);
  }
  const bool finished = read_both(out_pipe[0], err_pipe[0], run, outcome.out);
  ::close(out_pipe[0]);
  ::close(err_pipe[0]);
  if (!finished) {
    ::kill(child, SIGKILL);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  outcome.timed_out = !finished;
  outcome.succeeded = finished && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return outcome;
}

Expected<pid_t, std::string> start_detached(const std::filesystem::path& program,
                                            std::vector<std::string> argv, int niceness) {
  auto pointed = pointers(argv);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attributes);
  // Nothing of the caller's: no terminal, no pipe a caller waits on to close.
  for (const int stream : {0, 1, 2}) {
    posix_spawn_file_actions_addopen(&actions, stream, "/dev/null",
                                     stream == 0 ? O_RDONLY : O_WRONLY, 0);
  }
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
  pid_t child = -1;
  const int spawned =
      ::posix_spawn(&child, program.c_str(), &actions, &attributes, pointed.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    return unexpected(std::string(std::strerror(spawned)));
  }
  (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(child), niceness);
  return child;
}

} // namespace engram
