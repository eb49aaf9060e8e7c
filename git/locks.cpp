// Locks: looking for other git operations, waiting them out, and clearing the
// lock files a dead git left behind.
#include "git/locks.hpp"

#include "base/platform.hpp"
#include "git/repository.hpp"

#include <cerrno>
#include <fmt/format.h>
#include <fstream>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace engram::git {

namespace fs = std::filesystem;

namespace {

// The branch HEAD points at, as a ref path ("refs/heads/main"), or empty when
// HEAD is detached or unreadable.
std::string head_ref(const fs::path& gitdir) {
  std::ifstream in(gitdir / "HEAD");
  std::string line;
  std::getline(in, line);
  constexpr std::string_view k_prefix = "ref: ";
  return line.starts_with(k_prefix) ? line.substr(k_prefix.size()) : std::string();
}

// True when something (file, folder or dangling link) is at `path`.
bool present(const fs::path& path) {
  std::error_code error;
  return fs::symlink_status(path, error).type() != fs::file_type::not_found;
}

// How long ago `path` last changed; zero when it cannot be read.
std::chrono::milliseconds age_of(const fs::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    return std::chrono::milliseconds(0);
  }
  const auto changed = std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
          std::chrono::nanoseconds(platform::modified_ns(info))));
  const auto age = std::chrono::system_clock::now() - changed;
  return std::max(std::chrono::duration_cast<std::chrono::milliseconds>(age),
                  std::chrono::milliseconds(0));
}

// Removes `busy` when it is a lock file no process holds and that has not
// changed for `stale_after`; true when it was removed.
bool clear_if_stale(const Busy& busy, std::chrono::milliseconds stale_after) {
  if (!busy.lock_file || age_of(busy.path) < stale_after || held_open(busy.path)) {
    return false;
  }
  std::error_code error;
  if (!fs::remove(busy.path, error)) {
    return false;
  }
  spdlog::warn("removed the stale git lock {}: no process holds it and it has not changed for {} "
               "s (a git command probably died while holding it)",
               busy.path.string(),
               std::chrono::duration_cast<std::chrono::seconds>(stale_after).count());
  return true;
}

// "index.lock, a merge (MERGE_HEAD)" for a message.
std::string describe(const std::vector<Busy>& busy) {
  std::string out;
  for (const auto& item : busy) {
    out += (out.empty() ? "" : ", ") + item.what;
  }
  return out;
}

} // namespace

std::vector<Busy> find_busy(const fs::path& gitdir) {
  std::vector<Busy> busy;
  const auto look = [&](const fs::path& relative, std::string what, bool lock_file) {
    const fs::path path = gitdir / relative;
    if (present(path)) {
      busy.push_back(Busy{path, std::move(what), lock_file});
    }
  };
  look("index.lock", "index.lock (a git command is writing the index)", true);
  look("HEAD.lock", "HEAD.lock", true);
  // The notes ref each commit of engram's gets its record in: a run killed
  // while libgit2 wrote it leaves its lock, which would stop every next one.
  look(std::string(k_notes_ref) + ".lock", std::string(k_notes_ref) + ".lock", true);
  if (const std::string ref = head_ref(gitdir); !ref.empty()) {
    look(ref + ".lock", ref + ".lock", true);
  }
  look("MERGE_HEAD", "a merge in progress (MERGE_HEAD)", false);
  look("rebase-merge", "a rebase in progress (rebase-merge/)", false);
  look("rebase-apply", "a rebase or am in progress (rebase-apply/)", false);
  look("CHERRY_PICK_HEAD", "a cherry-pick in progress (CHERRY_PICK_HEAD)", false);
  look("REVERT_HEAD", "a revert in progress (REVERT_HEAD)", false);
  return busy;
}

bool held_open(const fs::path& path) {
  // Where the system cannot tell, it is taken as held: nothing is removed on a guess.
  return platform::held_open_by_any_process(path).value_or(true);
}

Expected<Waited, std::string> wait_until_idle(const fs::path& gitdir, const LockWait& wait) {
  Waited waited;
  auto pause = wait.first_pause;
  bool told = false;
  for (;;) {
    auto busy = find_busy(gitdir);
    std::erase_if(busy, [&](const Busy& item) {
      if (!clear_if_stale(item, wait.stale_after)) {
        return false;
      }
      waited.cleared_locks.push_back(item.path);
      return true;
    });
    if (busy.empty()) {
      return waited;
    }
    if (waited.waited >= wait.total) {
      return unexpected(fmt::format(
          "git is busy in {}: {}; waited {} s for it to finish. Finish or abort that git "
          "operation (a lock no process holds is removed once it is {} s old)",
          gitdir.string(), describe(busy),
          std::chrono::duration_cast<std::chrono::seconds>(waited.waited).count(),
          std::chrono::duration_cast<std::chrono::seconds>(wait.stale_after).count()));
    }
    if (!told) {
      spdlog::warn("waiting for git in {}: {}", gitdir.string(), describe(busy));
      told = true;
    }
    const auto step =
        std::max(std::min(pause, wait.total - waited.waited), std::chrono::milliseconds(1));
    if (wait.sleep) {
      wait.sleep(step);
    } else {
      std::this_thread::sleep_for(step);
    }
    waited.waited += step;
    pause = std::min(pause * 2, wait.longest_pause);
  }
}

} // namespace engram::git
