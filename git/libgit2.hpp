// What the files of git/ share: libgit2 initialised, its objects owned and
// its failures turned into messages; the index and HEAD's tree as staging,
// status and the index's upkeep read them. Private to git/.
#pragma once

#include "base/expected.hpp"
#include "git/repository.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <git2.h>
#include <optional>
#include <string>
#include <string_view>

namespace engram::git::detail {

// Initialises libgit2 once for the process (with fsync of everything it
// writes into .git, so a commit survives a power cut) and shuts it down at exit.
void ensure_library();

// libgit2's message for the last failure, prefixed with what we were doing.
std::string last_error(std::string_view doing);

// Forgets libgit2's last error and errno, just before a call that writes:
// libgit2 1.5 fails some writes without a message of its own (a loose
// object's stream on a full disk), and its last error is then one a lookup
// earlier left, harmless and unrelated ("the global/xdg file 'ignore'
// doesn't exist"). last_error() then says errno's reason instead.
void fresh_errors();

// The folder of the repository's objects (.git/objects, or the common
// folder's); nullopt, with libgit2's error set, when it has none.
std::optional<std::filesystem::path> objects_folder(git_repository* repository);

// A Failure from libgit2's last error and the code it returned: GIT_ELOCKED
// (a lock file someone else holds) is marked as worth retrying.
Failure failure(int code, std::string_view doing);

// Owns one libgit2 object and frees it with its own free function.
template <typename T, void (*Free)(T*)> struct Owned {
  T* pointer = nullptr;

  Owned() = default;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() {
    if (pointer != nullptr) {
      Free(pointer);
    }
  }
};

// An index (the staging area), in memory or the repository's.
using Index = Owned<git_index, git_index_free>;
// A tree: one folder's entries at one commit.
using Tree = Owned<git_tree, git_tree_free>;
// A commit.
using Commit = Owned<git_commit, git_commit_free>;
// A blob: one file's bytes.
using Blob = Owned<git_blob, git_blob_free>;
// A configuration, at some level.
using Config = Owned<git_config, git_config_free>;
// A status listing of the working tree and the index.
using StatusList = Owned<git_status_list, git_status_list_free>;
// An author or committer with a time.
using GitSignature = Owned<git_signature, git_signature_free>;
// A diff between two trees.
using Diff = Owned<git_diff, git_diff_free>;
// Any object, as revparse returns it.
using Object = Owned<git_object, git_object_free>;
// A walk over the history.
using Revwalk = Owned<git_revwalk, git_revwalk_free>;
// One entry of a tree, looked up by path.
using TreeEntry = Owned<git_tree_entry, git_tree_entry_free>;
// A reference (HEAD, a branch).
using Reference = Owned<git_reference, git_reference_free>;
// A walk over an index's conflicts.
using ConflictIterator = Owned<git_index_conflict_iterator, git_index_conflict_iterator_free>;

// Formats an object id as 40 hex digits.
inline std::string to_hex(const git_oid& oid) {
  std::array<char, GIT_OID_HEXSZ + 1> buffer{};
  git_oid_tostr(buffer.data(), buffer.size(), &oid);
  return buffer.data();
}

// The path a diff delta is about: the new file's, or the old one's when it has none.
inline const char* delta_path(const git_diff_delta* delta) {
  return delta->new_file.path != nullptr ? delta->new_file.path : delta->old_file.path;
}

// HEAD's tree into `tree`; false, nothing owned, when HEAD is unborn or cannot be read.
bool head_tree(git_repository* repository, Tree& tree);

// The repository's index as it is on disk, owned by `index`: read again
// only when the file is not what libgit2 last read. The user's git may have
// written it since, and the repository stays open across a daemon's runs.
Expected<git_index*, Failure> fresh_index(git_repository* repository, Index& index);

// The index to stage a commit in: fresh_index's and, while the marker in
// `gitdir` says an earlier commit's index was never written, brought up to
// HEAD in memory first (see index_upkeep.cpp). A git command that held
// index.lock then may since have written the index from before that commit,
// and this commit's index, once written, takes the marker away.
Expected<git_index*, Failure> staging_index(git_repository* repository,
                                            const std::filesystem::path& gitdir, Index& index);

// Stages `path` as HEAD has it, or drops it from the index when HEAD lacks
// it. The entry carries no stat data, so git compares the file's content and
// `git status` still shows it changed. Returns libgit2's code.
int stage_as_head(git_repository* repository, git_index* index, const std::string& path);

// The file whose presence says a commit moved HEAD and the index's file has
// not caught up yet (see Repository::land and catch_up_index).
std::filesystem::path behind_marker(const std::filesystem::path& gitdir);

// A working-tree file as git would stage it unfiltered: a link's target, a
// regular file's content up to `max_bytes` (a larger file is not read; its
// size is given instead); no bytes for anything else (a FIFO is never opened
// for reading) or when it cannot be read.
struct WorkingBytes {
  std::optional<std::string> bytes;        // nullopt: not read (too large, or unreadable)
  std::optional<std::uintmax_t> too_large; // the size of a file over the limit
};
WorkingBytes working_bytes(const std::filesystem::path& file, std::uintmax_t max_bytes);

} // namespace engram::git::detail
