// Session: exclusive access to one store's repository for one operation that
// writes (a consolidation, a snapshot, a rollback, a restore, a recovery). It
// holds the store lock, keeps the repository open, waits out the user's git
// operations, and commits with a retry when a lock appears mid-step.
#pragma once

#include "config/config.hpp"
#include "engine/run_lock.hpp"
#include "git/locks.hpp"
#include "git/repository.hpp"
#include "store/layout.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string_view>

namespace engram::engine {

// How long to wait for git, from `git.lock_wait_s` and `git.stale_lock_s`.
git::LockWait lock_wait_from(const config::Settings& settings);

// The layout a store's settings describe, as its profile keeps its files
// (store::resolve_profile: configured, recorded by init, or detected).
store::Layout layout_from(const config::Settings& settings, const std::filesystem::path& root);

// Why engram must change nothing in the folder at `root`, as the message to
// give ("" when it may change it): its profile is one whose agent takes in
// every file there (Letta, basic-memory). Every path that writes a store asks.
std::string hands_off_reason(const std::filesystem::path& root, const config::Settings& settings);

// engram's own signature in this repository: its local user.name/user.email
// where set, else `git.author_name`/`git.author_email`, else engram <engram@HOST>.
git::Signature engram_signature(const git::Repository& repository,
                                const config::Settings& settings);

// The name this machine's commits carry in their Engram-Machine trailer
// (`git.machine`, else the host name): a shared store's log says who learned what.
std::string machine_name(const config::Settings& settings);

// The agent's signature for snapshot commits: `git.agent_name` and
// `git.agent_email`, the email defaulting to agent@HOST.
git::Signature agent_signature(const config::Settings& settings);

// One commit step: stages and commits, or says why it could not.
using CommitStep = std::function<Expected<git::CommitId, git::Failure>(git::Repository&)>;

// Locked, open access to one store.
class Session {
public:
  // Takes the store lock (waiting up to git.lock_wait_s for another engram
  // run), opens the repository and waits until no git operation of the user
  // is in progress. Throws engram::Error when any of that fails.
  // `reuse`: the store's repository as an earlier session left it (see
  // take_repository), so its index is not read again unless it changed.
  static Session open(const std::filesystem::path& root, const config::Settings& settings,
                      std::optional<git::Repository> reuse = std::nullopt);

  // The store's root folder.
  const std::filesystem::path& root() const { return m_root; }
  // The store's repository, open for the session's lifetime.
  git::Repository& repository() { return m_repository; }
  // The settings that apply to the store.
  const config::Settings& settings() const { return m_settings; }
  // The store's layout.
  const store::Layout& layout() const { return m_layout; }

  // Waits until no git operation of the user is in progress; throws
  // engram::Error with what is in the way when git.lock_wait_s runs out.
  void wait_for_git();

  // Runs `step` after wait_for_git(); when a lock another process took
  // stops it midway, waits again and redoes the whole step (staging again
  // gives the same tree, so nothing is done twice). Throws engram::Error,
  // naming `what`, on any other failure or when the wait runs out.
  git::CommitId commit(std::string_view what, const CommitStep& step);

  // Hands the open repository to a caller that keeps it for the store's next
  // session; nothing may use this session's repository after.
  git::Repository take_repository() { return std::move(m_repository); }

private:
  // Takes over what open() prepared.
  Session(std::filesystem::path root, config::Settings settings, store::Layout layout, RunLock lock,
          git::Repository repository);

  std::filesystem::path m_root; // the store
  config::Settings m_settings;  // its settings
  store::Layout m_layout;       // its layout, from the settings
  RunLock m_lock;               // declared before the repository, so released after it closes
  git::Repository m_repository; // open for the session's lifetime
};

} // namespace engram::engine
