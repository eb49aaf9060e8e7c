// History: reading a store's commits back (`engram log`, `engram show`) and
// computing, without touching the working tree, what undoing a commit
// (`engram rollback`) or bringing files back from one (`engram restore`)
// would change. Writing those changes is the engine's: it goes through the
// same crash-safe apply as a consolidation.
#pragma once

#include "base/expected.hpp"
#include "git/repository.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace engram::git {

// A commit id as people read it: its first 12 hex digits.
inline std::string short_id(const std::string& id) {
  return id.substr(0, 12);
}

// One commit as `engram log` lists it.
struct LogEntry {
  std::string id;                // 40 hex digits
  std::int64_t time = 0;         // commit time, seconds since the epoch
  int offset_minutes = 0;        // the committer's UTC offset
  Signature author;              // who made the change (the agent, for snapshots)
  Signature committer;           // who committed it (engram)
  std::string summary;           // the message's first line
  std::string run;               // the Engram-Run trailer; empty for commits engram did not make
  std::size_t files_changed = 0; // against the first parent (every file, for the first commit)
  std::size_t insertions = 0;    // lines added
  std::size_t deletions = 0;     // lines removed
};

// One file a commit changed, against its first parent.
struct FileDiff {
  std::string path;
  ChangeKind kind = ChangeKind::modified;
};

// One commit in full, as `engram show` renders it.
struct CommitDetail {
  LogEntry entry;
  std::string message; // the whole message
  std::string note;    // its note in k_notes_ref (a consolidation's full record); empty: none
  std::vector<std::pair<std::string, std::string>> trailers; // key, value; in order
  std::vector<std::string> parents;                          // ids
  std::vector<FileDiff> files;                               // sorted by path
};

// One file of a computed change: its blob now (HEAD) and what it becomes.
struct TreeChange {
  std::string path;                  // store-relative
  std::optional<std::string> before; // blob id in HEAD; nullopt: HEAD lacks the file
  std::optional<std::string> after;  // blob id to write; nullopt: remove the file
};

// What reverting one commit on top of HEAD would do.
struct Revert {
  std::vector<TreeChange> changes;    // sorted by path; empty when HEAD already undid it
  std::vector<std::string> conflicts; // files a later change touched on the same lines
};

// The commits reachable from HEAD, newest first, at most `limit` (0: all).
// Throws engram::Error when the history cannot be read.
std::vector<LogEntry> log(const Repository& repository, std::size_t limit);

// The values of the trailer `key` (`Engram-Usage`) in the last `limit`
// commits of HEAD's first-parent line, newest first; empty when HEAD is
// unborn. Throws engram::Error when the history cannot be read.
std::vector<std::string> recent_trailers(const Repository& repository, std::string_view key,
                                         std::size_t limit);

// One commit of HEAD's first-parent line as walk_trailers gives it.
struct TrailedCommit {
  std::string id;                                            // 40 hex digits
  std::string summary;                                       // the message's first line
  std::int64_t time = 0;                                     // commit time, seconds since the epoch
  std::vector<std::pair<std::string, std::string>> trailers; // key, value; in order
  int offset_minutes = 0;                                    // the committer's UTC offset
};

// Calls `visit` with each commit of HEAD's first-parent line, newest first,
// until it returns false or the line ends; nothing when HEAD is unborn.
// Throws engram::Error when the history cannot be read.
void walk_trailers(const Repository& repository,
                   const std::function<bool(const TrailedCommit&)>& visit);

// The id of the commit `rev` names: a full or abbreviated id, HEAD, HEAD~2, a
// branch or tag. Says why when it names none.
[[nodiscard]] Expected<std::string, std::string> resolve(const Repository& repository,
                                                         std::string_view rev);

// The note k_notes_ref holds for commit `id` (a consolidation's record);
// empty when it has none.
std::string note_of(const Repository& repository, const std::string& id);

// The commit `id` in full. Throws engram::Error when it cannot be read.
CommitDetail show(const Repository& repository, const std::string& id);

// Reverts commit `id` onto HEAD in memory (libgit2's three-way revert). Says
// why when it cannot be reverted: a merge commit, or the first commit.
[[nodiscard]] Expected<Revert, std::string> revert_onto_head(const Repository& repository,
                                                             const std::string& id);

// Every file at `path` in commit `id` (the file itself, or every file under a
// folder) with its blob id, sorted; empty when the commit has no such path.
std::vector<std::pair<std::string, std::string>>
files_at(const Repository& repository, const std::string& id, const std::string& path);

// Every file that differs between the trees of commits `from` (nullopt: an
// empty tree) and `to`, with its blob in each, sorted by path. Throws
// engram::Error when either cannot be read.
std::vector<TreeChange> changed_between(const Repository& repository,
                                        const std::optional<std::string>& from,
                                        const std::string& to);

// The bytes of blob `id`. Throws engram::Error, saying to run `git fsck`,
// when the repository lacks it.
std::string blob_bytes(const Repository& repository, const std::string& id);

// The blob id of `path` in HEAD, or nullopt when HEAD lacks it (or is unborn).
std::optional<std::string> blob_in_head(const Repository& repository, const std::string& path);

} // namespace engram::git
