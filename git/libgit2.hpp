// libgit2 plumbing shared by the files of git/: initialising the library,
// owning its objects, and turning its failures into messages. Private to git/.
#pragma once

#include "git/repository.hpp"

#include <array>
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

} // namespace engram::git::detail
