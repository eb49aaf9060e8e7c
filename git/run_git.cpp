// Running git itself (see run_git.hpp).
#include "git/run_git.hpp"

#include "base/child_process.hpp"

#include <fmt/format.h>

namespace engram::git {
namespace {

constexpr std::size_t k_out_limit = std::size_t{1} << 20;
constexpr std::size_t k_said_limit = 4096;

} // namespace

GitOutcome run_git(const GitRun& run) {
  GitOutcome outcome;
  std::optional<ErrorSorter> sorter;
  // git's standard error: sorted into progress and what it said, or kept as it is.
  const auto keep_said = [&](std::string_view bytes) {
    if (sorter) {
      sorter->feed(bytes);
      return;
    }
    outcome.said.append(
        bytes.substr(0, k_said_limit - std::min(k_said_limit, outcome.said.size())));
  };
  ChildRun child{.argv = {"git", "--git-dir=" + run.gitdir.string()},
                 .environment = {"GIT_TERMINAL_PROMPT=0"},
                 .niceness = run.niceness,
                 .timeout = run.timeout,
                 .out_limit = k_out_limit,
                 .error_stream = run.progress ? ErrorStream::terminal : ErrorStream::pipe,
                 .on_error = keep_said};
  child.argv.insert(child.argv.end(), run.args.begin(), run.args.end());
  if (run.progress) {
    sorter.emplace(run.progress, outcome.said, k_said_limit);
    child.environment.emplace_back("GIT_PROGRESS_DELAY=0"); // from the start, not after 2 s
  }
  auto ran = run_child(child);
  if (ran.not_started) {
    outcome.said = fmt::format("cannot run git: {}", *ran.not_started);
    return outcome;
  }
  if (sorter) {
    sorter->finish();
  }
  outcome.out = std::move(ran.out);
  while (!outcome.said.empty() && outcome.said.back() == '\n') {
    outcome.said.pop_back();
  }
  if (ran.timed_out) {
    outcome.said = fmt::format("git {} gave no answer in {} s and was stopped",
                               run.args.empty() ? "" : run.args.front(),
                               run.timeout ? run.timeout->count() : 0);
    return outcome;
  }
  outcome.ok = ran.succeeded;
  return outcome;
}

} // namespace engram::git
