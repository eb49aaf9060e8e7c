// Repository: a store's own git repository through libgit2. Every change
// engram makes ends as one commit here, so `git log` explains the store.
#pragma once

#include "base/expected.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <type_traits>
#include <vector>

struct git_repository;
struct git_index;
struct git_tree;
struct git_oid;
struct git_commit;

namespace engram::git {

// The author and committer of engram's commits.
struct Signature {
  std::string name;
  std::string email;
};

// The signature engram uses when the configuration names nobody: `engram <engram@HOSTNAME>`.
Signature default_signature();

// This machine's host name, or "localhost" when it has none.
std::string host_name();

// Whether a failed step may succeed when tried again.
enum class Locked {
  yes, // a lock file another process holds stopped it: wait and redo the whole step
  no,  // anything else
};

// Why a git operation failed.
struct Failure {
  std::string message; // what was being done, and libgit2's reason
  Locked locked = Locked::no;
};

// What staging does with a file it cannot read.
enum class Unreadable {
  fail, // the whole step fails (engram's own files: they must all land)
  skip, // the file waits for the next commit (an agent's file being written right now)
};

// Whether a file's bytes may be committed. A file refused stays on disk as
// it is and out of the commit (HEAD's version, if any, stays committed). One
// larger than `max_bytes` is refused unread: what was not read cannot have
// been checked, and reading it whole could take all the memory there is.
struct Admit {
  // Judges a file by its bytes: true when they may be committed.
  using Check = std::function<bool(const std::string& path, std::string_view bytes)>;
  // Told of each file refused for its size, with that size.
  using TooLarge = std::function<void(const std::string& path, std::uintmax_t size)>;

  // Admits everything: nothing is read.
  Admit() = default;
  // Admits what `check` accepts, of any size.
  template <typename F>
  requires std::is_invocable_r_v<bool, F&, const std::string&, std::string_view> Admit(F judge)
      : check(std::move(judge)) {} // NOLINT: a callable is an Admit

  Check check;
  std::uintmax_t max_bytes = std::numeric_limits<std::uintmax_t>::max();
  TooLarge too_large;

  // True when files are checked at all.
  explicit operator bool() const { return static_cast<bool>(check); }
};

// Where engram keeps each consolidation's full record, as git notes on its
// commits: `git log --notes=engram` shows them under the messages.
inline constexpr const char* k_notes_ref = "refs/notes/engram";

// A commit's id as 40 hex digits, or nullopt when there was nothing to commit
// (the staged tree equals HEAD's; the index is written all the same).
using CommitId = std::optional<std::string>;

// How a file differs between HEAD and the working tree (the index included).
enum class ChangeKind { added, modified, deleted };

// One file the working tree changed since HEAD.
struct Change {
  std::string path; // store-relative, '/'-separated
  ChangeKind kind = ChangeKind::modified;
};

// "added", "modified" or "deleted".
std::string_view change_kind_name(ChangeKind kind);

// An open git repository with a working tree. Move-only; closes on destruction.
class Repository {
public:
  // Opens the repository of the store at `path` (gitdir_of(path)); never
  // searches parent folders, so a store inside another repository stays its own.
  [[nodiscard]] static Expected<Repository, std::string> open(const std::filesystem::path& path);

  // Creates an empty repository at `path` (or opens the one already there).
  // A `.git` that cannot be opened and holds no object and no ref — one a
  // failed init left half made, out of disk space — is completed, as
  // `git init` run again does; any other is reported, never touched.
  [[nodiscard]] static Expected<Repository, std::string> init(const std::filesystem::path& path);

  // Creates the history of the store at `root` in outside_gitdir(root), with
  // nothing written into `root`: for a folder that is, or lies inside, a
  // repository that is not engram's.
  [[nodiscard]] static Expected<Repository, std::string>
  init_outside(const std::filesystem::path& root);

  // Where the history of the store at `root` is kept when it is kept outside it:
  // $XDG_DATA_HOME/engram/history/<folder name>-<hash of its absolute path>.git.
  static std::filesystem::path outside_gitdir(const std::filesystem::path& root);

  // The git folder holding the history of the store at `root`: the one outside
  // it when there is one, else `root/.git`.
  static std::filesystem::path gitdir_of(const std::filesystem::path& root);

  // True when a commit in the store at `root` moved HEAD but could not write
  // the index after it: `git status` shows changes until catch_up_index runs.
  static bool index_behind(const std::filesystem::path& root);

  // True when the store at `path` has a history: `path/.git` exists (as a
  // folder or a gitdir file), or one outside it does.
  static bool exists_at(const std::filesystem::path& path);

  // The working tree of another repository that `path` lies inside (found
  // from its parent folder up), or nullopt when there is none.
  static std::optional<std::filesystem::path> enclosing(const std::filesystem::path& path);

  Repository(Repository&&) noexcept;
  Repository& operator=(Repository&&) noexcept;
  ~Repository();

  // Stages every change of the working tree (ignored files stay out) but
  // what `admit` refuses, writes the index so `git status` is clean after,
  // and commits on HEAD (the first commit always).
  [[nodiscard]] Expected<CommitId, Failure> commit_all(std::string_view message,
                                                       const Signature& author,
                                                       const Signature& committer,
                                                       const Admit& admit = {});
  [[nodiscard]] Expected<CommitId, Failure> commit_all(std::string_view message,
                                                       const Signature& signature) {
    return commit_all(message, signature, signature);
  }

  // Stages exactly `paths` (store-relative, '/'-separated): a path that exists
  // in the working tree is added, one that does not is removed from the index.
  // Nothing else is staged, so a file someone else changed meanwhile stays out
  // of the commit. Writes the index and commits on HEAD. Staging again what a
  // commit already holds commits nothing, so a step cut short can be redone.
  // With a `note`, the commit gets it as its note in k_notes_ref.
  [[nodiscard]] Expected<CommitId, Failure> commit_paths(const std::vector<std::string>& paths,
                                                         std::string_view message,
                                                         const Signature& signature,
                                                         std::string_view note = {});

  // Stages `paths` as commit_paths does, in the index in memory only; then
  // commit_staged() commits them. A path that cannot be read (an agent is
  // rewriting it this instant) fails the step, or with Unreadable::skip is
  // left as the index had it, for the next commit. A file `admit` refuses (its
  // bytes as they are on disk, and again as staged, should it change between)
  // is staged as HEAD has it, or not at all. Returns the paths staged.
  [[nodiscard]] Expected<std::vector<std::string>, Failure>
  stage_paths(const std::vector<std::string>& paths, Unreadable unreadable,
              const Admit& admit = {});

  // Writes the index stage_paths() prepared and commits it on HEAD; nullopt
  // when the staged tree is HEAD's already. With `paths` (those staged), the
  // commit's tree is HEAD's with exactly those paths as the index has them,
  // built folder by folder along their paths instead of from the whole index.
  [[nodiscard]] Expected<CommitId, Failure>
  commit_staged(std::string_view message, const Signature& author, const Signature& committer,
                const std::vector<std::string>* paths = nullptr, std::string_view note = {});

  // commit_paths for a merge of the commit `merged` (its id): the commit gets
  // it as a second parent, even when the tree is HEAD's, so the history says
  // it is merged. When the staged tree is `merged`'s own and HEAD is unborn
  // or its ancestor, HEAD moves to it instead (a fast-forward) and that is
  // the id returned.
  [[nodiscard]] Expected<CommitId, Failure>
  commit_merge(const std::vector<std::string>& paths, const std::string& merged,
               std::string_view message, const Signature& signature, std::string_view note = {});

  // Every file the working tree or the index changed since HEAD, untracked
  // ones included and ignored ones not, sorted by path; renames are a deletion
  // and an addition. The index's stat data is refreshed and written, as `git
  // status` does. With `only` (store-relative file paths a watcher reported),
  // exactly those are looked at, their bytes on disk (a link's target; git's
  // filters are not applied) against HEAD's, and neither the rest of the tree
  // nor the index is read: what only the index changed is not seen then, and
  // a folder at a path is not a file there. A status that fails (a file git
  // cannot read) is done so for every path.
  std::vector<Change> changes(const std::vector<std::string>* only = nullptr) const;

  // Stores `bytes` as a blob in the object database (not yet flushed: see
  // flush); returns its id.
  [[nodiscard]] Expected<std::string, Failure> write_blob(std::string_view bytes);

  // Stores each of `blobs` as write_blob does; returns their ids, in order.
  [[nodiscard]] Expected<std::vector<std::string>, Failure>
  write_blobs(const std::vector<std::string_view>& blobs);

  // The bytes of the blob `id`, or nullopt when the object database lacks it.
  std::optional<std::string> read_blob(const std::string& id) const;

  // Adds `pattern` to `.git/info/exclude` unless it is there, so engram's own
  // state stays out of `git status` even when the store's .gitignore lacks it.
  void ensure_excluded(std::string_view pattern);

  // Makes everything written to the repository so far durable (one syncfs of
  // its file system): objects are written without an fsync each. nullopt
  // when it worked.
  [[nodiscard]] std::optional<Failure> flush() const;

  // The repository's git folder (`<workdir>/.git/`, or where a gitdir file points).
  std::filesystem::path gitdir() const;

  // The libgit2 handle, for the other files of git/.
  git_repository* handle() const { return m_repository.get(); }

  // The id of HEAD's commit as hex; nullopt when HEAD is unborn (no commit yet).
  // Throws engram::Error when HEAD cannot be read.
  std::optional<std::string> head() const;

  // True when HEAD names a commit, not a branch (a `git checkout` of a
  // commit): a commit onto it would be on no branch.
  bool head_detached() const;

  // True when the working tree and the index match HEAD, untracked files
  // included and ignored ones not, and a submodule's own changes left to it:
  // when changes() finds nothing. Refreshes the index as changes() does.
  bool is_clean() const;

  // Brings the index up to HEAD when a commit moved HEAD but its index was
  // not written (see land): each path where the index and HEAD differ is set
  // to HEAD's blob, its stat data cleared so a status hashes the file, and
  // the index written. Call it holding the store, with git idle. Logs what it
  // could not do.
  void catch_up_index();

  // Removes index.lock when a commit left the index behind HEAD (see
  // catch_up_index) and no process holds the lock: the helper writing the
  // index died with the process, and no one else's git waits that long.
  // Call it holding the store, before waiting for git.
  void drop_dead_index_lock();

  // The signature to commit with: the repository's own `user.name` and
  // `user.email` (its local config only, not the user's global one) when set,
  // else `configured`'s non-empty fields, else default_signature()'s.
  Signature signature_for(const Signature& configured) const;

  // The working tree's root.
  const std::filesystem::path& workdir() const { return m_workdir; }

private:
  // Releases the libgit2 handle.
  struct Closer {
    void operator()(git_repository* repository) const;
  };

  Repository(git_repository* repository, std::filesystem::path workdir);

  // Writes `index` as a tree (HEAD's updated at `paths` only, when given),
  // commits that tree on HEAD unless it is HEAD's already (with `merged` as a
  // second parent, or fast-forwarded to it: see commit_merge), and writes the
  // index's file once HEAD has moved, as git does.
  [[nodiscard]] Expected<CommitId, Failure>
  commit_index(git_index* index, std::string_view message, const Signature& author,
               const Signature& committer, const std::vector<std::string>* paths = nullptr,
               std::string_view note = {}, const git_oid* merged = nullptr);

  // Moves HEAD to the durable commit `commit_id` if it still names
  // `expected` (nullptr: unborn), makes that durable, then writes `index`'s
  // file; a marker says the index is behind HEAD until then. An index HEAD
  // moved without is logged, not failed: catch_up_index writes it next time.
  [[nodiscard]] Expected<CommitId, Failure> land(const git_oid& commit_id, const git_oid* expected,
                                                 const std::string& text, git_index* index);

  std::unique_ptr<git_repository, Closer> m_repository;
  std::filesystem::path m_workdir;
};

} // namespace engram::git
