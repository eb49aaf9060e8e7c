// Remote: a store shared through an ordinary git remote. git itself carries
// the commits (`git fetch`, `git push`, see run_git.hpp); what engram asks of
// the history around them (which commit holds which, what changed between
// two) goes through libgit2.
#pragma once

#include "base/expected.hpp"
#include "git/history.hpp"
#include "git/repository.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace engram::git {

// Where a store keeps the remote's tip as last fetched: a ref of engram's
// own, so the user's `origin` and its tracking branches are never touched.
std::string fetched_ref(const std::string& branch);

// The remote's tip engram last saw and holds (fetched and merged, or pushed):
// a remote whose new tip does not contain it has had its history rewritten.
inline constexpr const char* k_synced_ref = "refs/engram/synced";

// How long one fetch or push may take before it is stopped.
inline constexpr std::chrono::seconds k_remote_timeout{120};

// Fetches `branch` of `url` into fetched_ref(branch). The remote's tip, or
// nullopt when the remote has no such branch yet (an empty remote). Says why,
// in git's words, when the remote cannot be reached or read.
[[nodiscard]] Expected<std::optional<std::string>, std::string>
fetch(const Repository& repository, const std::string& url, const std::string& branch);

// Why a push did not land.
struct PushFailure {
  std::string message;   // git's words
  bool rejected = false; // the remote refused it (it moved on, a hook): not a network fault
};

// Pushes `commit` to `branch` of `url`, never forced: a remote that moved on
// refuses it, and the next round merges what it holds first.
[[nodiscard]] std::optional<PushFailure> push(const Repository& repository, const std::string& url,
                                              const std::string& branch, const std::string& commit);

// The best common ancestor of two commits, or nullopt when they share none.
std::optional<std::string> merge_base(const Repository& repository, const std::string& a,
                                      const std::string& b);

// True when `commit` is `ancestor` or descends from it.
bool contains(const Repository& repository, const std::string& commit, const std::string& ancestor);

// How many commits `local` has that `upstream` lacks, and the other way.
struct AheadBehind {
  std::size_t ahead = 0;
  std::size_t behind = 0;
};
AheadBehind ahead_behind(const Repository& repository, const std::string& local,
                         const std::string& upstream);

// The commit a ref names, or nullopt when there is no such ref.
std::optional<std::string> read_ref(const Repository& repository, const std::string& name);

// Points the ref `name` at `commit`, creating it if needed. Throws engram::Error.
void write_ref(const Repository& repository, const std::string& name, const std::string& commit,
               const std::string& why);

// The branch HEAD is on (`main`), or nullopt when HEAD is detached.
std::optional<std::string> head_branch(const Repository& repository);

// The commit time of `commit`, seconds since the epoch.
std::int64_t commit_time(const Repository& repository, const std::string& commit);

} // namespace engram::git
