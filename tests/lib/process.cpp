// Runs programs with posix_spawn, their output redirected to files (no pipes,
// so a chatty child can never block on a full pipe).
#include "lib/process.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>

extern char** environ;

namespace engram::test {

namespace {

// This process's environment with `changes` applied. Variables that would
// point git or engram somewhere else than the test intends are dropped.
std::vector<std::string> child_environment(const Environment& changes) {
  std::map<std::string, std::string> variables;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const auto equals = text.find('=');
    if (equals == std::string::npos) {
      continue;
    }
    std::string name = text.substr(0, equals);
    if (name.starts_with("GIT_") || name.starts_with("XDG_") || name.starts_with("ENGRAM_")) {
      continue;
    }
    variables[std::move(name)] = text.substr(equals + 1);
  }
  for (const auto& [name, value] : changes) {
    if (value.empty()) {
      variables.erase(name);
    } else {
      variables[name] = value;
    }
  }
  std::vector<std::string> result;
  for (const auto& [name, value] : variables) {
    result.push_back(name + "=" + value);
  }
  return result;
}

// A NULL-terminated array of pointers into `strings`, as exec wants.
std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& text : strings) {
    pointers.push_back(text.data());
  }
  pointers.push_back(nullptr);
  return pointers;
}

} // namespace

std::vector<std::string> Result::out_lines() const {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < out.size()) {
    auto end = out.find('\n', begin);
    if (end == std::string::npos) {
      end = out.size();
    }
    lines.push_back(out.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

pid_t spawn(const std::vector<std::string>& args, const Environment& changes,
            const std::filesystem::path& out, const std::filesystem::path& err,
            const std::filesystem::path& input) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, input.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);

  std::vector<std::string> argv_strings = args;
  std::vector<std::string> env_strings = child_environment(changes);
  const std::vector<char*> argv = c_strings(argv_strings);
  const std::vector<char*> envp = c_strings(env_strings);

  // posix_spawnp searches PATH of the *parent*; that PATH is kept in the child.
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    throw std::runtime_error("cannot start " + args.front() + ": " + std::strerror(spawned));
  }
  return pid;
}

Result run(const std::vector<std::string>& args, const Environment& changes,
           const std::filesystem::path& input) {
  TempDir capture;
  const std::filesystem::path out_path = capture / "stdout";
  const std::filesystem::path err_path = capture / "stderr";
  const pid_t pid = spawn(args, changes, out_path, err_path, input);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      throw std::runtime_error("waitpid failed for " + args.front());
    }
  }
  Result result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  return result;
}

Sandbox::Sandbox() {
  for (const char* folder : {"home", "config", "data", "work"}) {
    std::filesystem::create_directories(m_dir / folder);
  }
}

Sandbox::Sandbox(const std::filesystem::path& parent) : m_dir(parent) {
  for (const char* folder : {"home", "config", "data", "work"}) {
    std::filesystem::create_directories(m_dir / folder);
  }
}

std::filesystem::path Sandbox::work(const std::filesystem::path& relative) const {
  return relative.empty() ? m_dir / "work" : m_dir / "work" / relative;
}

std::filesystem::path Sandbox::default_config_file() const {
  return m_dir / "config" / "engram" / "config.toml";
}

std::filesystem::path Sandbox::default_store() const {
  return m_dir / "data" / "engram" / "memory";
}

Environment Sandbox::environment() const {
  return {
      {"HOME", (m_dir / "home").string()},
      {"XDG_CONFIG_HOME", (m_dir / "config").string()},
      {"XDG_DATA_HOME", (m_dir / "data").string()},
      {"XDG_RUNTIME_DIR", (m_dir / "home").string()},
      {"GIT_CONFIG_NOSYSTEM", "1"},
      // Identity for commits the tests make with git themselves.
      {"GIT_AUTHOR_NAME", "Test Author"},
      {"GIT_AUTHOR_EMAIL", "author@example.com"},
      {"GIT_COMMITTER_NAME", "Test Author"},
      {"GIT_COMMITTER_EMAIL", "author@example.com"},
      {"LC_ALL", "C.UTF-8"},
  };
}

Environment Sandbox::engram_environment() const {
  Environment changes = environment();
  // engram must find its identity itself, not through git's variables.
  for (const char* name :
       {"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"}) {
    changes[name] = "";
  }
  return changes;
}

namespace {

// True when `args` are a full consolidation that writes: the runs after
// which the store must be at its fixed point.
bool is_full_consolidation(const std::vector<std::string>& args) {
  if (args.empty() || args.front() != "consolidate") {
    return false;
  }
  return std::none_of(args.begin(), args.end(), [](const std::string& arg) {
    return arg == "--dry-run" || arg == "--only" || arg == "--skip" || arg == "--lightweight" ||
           arg.starts_with("--only=") || arg.starts_with("--skip=");
  });
}

} // namespace

Result Sandbox::engram(const std::vector<std::string>& args) const {
  std::vector<std::string> command{ENGRAM_BINARY};
  command.insert(command.end(), args.begin(), args.end());
  Result result = run(command, engram_environment());
  // Convergence, checked on every store of the suite: right after a full
  // consolidation that finished its work, planning again finds nothing to
  // do. A run that deferred changes, or that a daemon ran, is left alone.
  if (result.exit_code == 0 && is_full_consolidation(args) && !m_skip_convergence &&
      result.out.find("deferred") == std::string::npos &&
      result.err.find("consolidated by the daemon") == std::string::npos) {
    std::vector<std::string> again = command;
    std::erase(again, "--json");
    again.push_back("--dry-run");
    const Result second = run(again, engram_environment());
    INFO("a second consolidation right after this one:\n"
         << result.out << result.err << "\nwould still do:\n"
         << second.out << second.err);
    CHECK(second.out.find("nothing to consolidate") != std::string::npos);
  }
  return result;
}

Result Sandbox::git(const std::filesystem::path& dir, const std::vector<std::string>& args) const {
  std::vector<std::string> command{"git", "-C", dir.string()};
  command.insert(command.end(), args.begin(), args.end());
  return run(command, environment());
}

} // namespace engram::test
