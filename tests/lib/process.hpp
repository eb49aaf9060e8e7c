// Running real programs from tests: the `engram` binary and `git`, each in a
// sandbox whose HOME and XDG folders are temporary, so a user's own
// configuration is never read.
#pragma once

#include "lib/temp_dir.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <sys/types.h>
#include <vector>

namespace engram::test {

// What a finished program left behind.
struct Result {
  int exit_code = -1; // 128 + signal when killed by a signal
  std::string out;    // everything written to stdout
  std::string err;    // everything written to stderr

  // The stdout lines, without their endings.
  std::vector<std::string> out_lines() const;
};

// Variables to set (or, with an empty value, to remove) in a child's environment.
using Environment = std::map<std::string, std::string>;

// Runs `args[0]` (searched in PATH) with `args`, stdin from `input` (default
// /dev/null), in this process's environment changed by `changes`; waits for
// it and captures its output.
Result run(const std::vector<std::string>& args, const Environment& changes = {},
           const std::filesystem::path& input = "/dev/null");

// Starts `args[0]` (searched in PATH) like run() does, with stdout and stderr
// appended to the files `out` and `err`, and returns without waiting for it.
pid_t spawn(const std::vector<std::string>& args, const Environment& changes,
            const std::filesystem::path& out, const std::filesystem::path& err,
            const std::filesystem::path& input = "/dev/null");

// A temporary HOME, XDG_CONFIG_HOME and XDG_DATA_HOME, and a work folder, in
// which the real `engram` and `git` run.
class Sandbox {
public:
  Sandbox();
  // A sandbox inside `parent` rather than $TMPDIR: for what /tmp changes,
  // such as a systemd unit, which gives its daemon a /tmp of its own.
  explicit Sandbox(const std::filesystem::path& parent);

  // The sandbox's root folder.
  const std::filesystem::path& root() const { return m_dir.path(); }

  // A path inside the work folder (where tests put their stores).
  std::filesystem::path work(const std::filesystem::path& relative = {}) const;

  // Where `engram` looks for its configuration when --config is not given.
  std::filesystem::path default_config_file() const;

  // Where `engram` puts the store when nothing names one.
  std::filesystem::path default_store() const;

  // The environment changes every program in the sandbox runs with.
  Environment environment() const;

  // Runs the `engram` binary under test with `args`. After a full
  // consolidation that succeeded, checks that planning again right after
  // finds nothing to do (the fixed point), unless skip_convergence_check().
  Result engram(const std::vector<std::string>& args) const;

  // For a test whose store changes between runs on purpose (a rule that
  // counts runs, a plugin that fails): no convergence check.
  void skip_convergence_check() { m_skip_convergence = true; }

  // The environment changes `engram` runs with: environment() without git's
  // identity variables, so engram finds its identity itself.
  Environment engram_environment() const;

  // Runs `git -C dir args...`.
  Result git(const std::filesystem::path& dir, const std::vector<std::string>& args) const;

private:
  TempDir m_dir;
  bool m_skip_convergence = false;
};

} // namespace engram::test
