// Running git itself, for what engram leaves to it: packing (`git repack`)
// and talking to remotes (`git fetch`, `git push`). git reads the user's ssh
// configuration and agent, runs their credential helpers and honours their
// proxies, which is what a git user expects of a tool that pushes for them.
#pragma once

#include "git/git_progress.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace engram::git {

// How to run one git command.
struct GitRun {
  std::filesystem::path gitdir;  // passed as --git-dir
  std::vector<std::string> args; // after `git --git-dir=…`
  int niceness = 0;              // added to the child's priority (upkeep runs behind the user)
  // Killed after this long: a remote that stops answering must not stop the daemon.
  std::optional<std::chrono::seconds> timeout = {};
  // When set, git's standard error is a pseudo-terminal, where git reports
  // its progress, and each report reaches `progress` rather than `said`.
  GitProgress progress = {};
};

// What git said and whether it succeeded.
struct GitOutcome {
  bool ok = false;
  std::string out;  // its standard output (at most 1 MiB kept)
  std::string said; // its standard error, trailing newlines removed (at most 4 KiB kept)
};

// Runs git and waits for it, its standard input /dev/null and terminal
// prompts off (GIT_TERMINAL_PROMPT=0): a daemon has no one to ask for a
// password, and a credential helper or ssh-agent answers instead. A git that
// cannot be started, or that ran past its timeout, fails with the reason.
GitOutcome run_git(const GitRun& run);

} // namespace engram::git
