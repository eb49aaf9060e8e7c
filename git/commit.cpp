// Repository's commits: what was staged made a tree, a commit and HEAD's
// new target, with the index, in the order a crash cannot break (see
// commit_index).
#include "base/fault.hpp"
#include "base/step_timer.hpp"
#include "git/libgit2.hpp"
#include "git/repository.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <optional>
#include <spdlog/spdlog.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace engram::git {

using namespace detail;

namespace {

// Ensures a commit message ends in exactly one newline, as git writes them.
std::string normalise_message(std::string_view message) {
  std::string result(message);
  while (!result.empty() && result.back() == '\n') {
    result.pop_back();
  }
  result += '\n';
  return result;
}

// Writes a commit object of `tree` with `parents` (none for a first commit)
// and sets `out` to its id. Not git_commit_create: libgit2 1.5's returns 0 when the object
// database fails to write the commit (out of space, say), and HEAD would
// then be moved to a commit that does not exist. git_odb_write reports it.
int write_commit(git_oid& out, git_repository* repository, const git_signature* author,
                 const git_signature* committer, const std::string& text, const git_tree* tree,
                 const std::vector<const git_commit*>& parents) {
  git_buf bytes = GIT_BUF_INIT;
  std::vector<const git_commit*> list = parents; // libgit2 takes a non-const array
  int code = git_commit_create_buffer(&bytes, repository, author, committer, nullptr, text.c_str(),
                                      tree, list.size(), list.data());
  if (code == 0) {
    Owned<git_odb, git_odb_free> odb;
    code = git_repository_odb(&odb.pointer, repository);
    if (code == 0) {
      fresh_errors();
      code = git_odb_write(&out, odb.pointer, bytes.ptr, bytes.size, GIT_OBJECT_COMMIT);
    }
  }
  git_buf_dispose(&bytes);
  return code;
}

// Writes the commit of the tree `tree_id` on `parents`, by `author`
// and `committer` now; sets `out` to its id. nullopt when it worked.
std::optional<Failure> new_commit(git_oid& out, git_repository* repository, const Signature& author,
                                  const Signature& committer, const std::string& text,
                                  const git_oid& tree_id,
                                  const std::vector<const git_commit*>& parents) {
  Tree tree;
  if (const int code = git_tree_lookup(&tree.pointer, repository, &tree_id); code != 0) {
    return failure(code, "cannot read the new tree");
  }
  GitSignature by;
  GitSignature to;
  if (git_signature_now(&by.pointer, author.name.c_str(), author.email.c_str()) != 0 ||
      git_signature_now(&to.pointer, committer.name.c_str(), committer.email.c_str()) != 0) {
    return Failure{last_error("invalid commit signature")};
  }
  if (const int code =
          write_commit(out, repository, by.pointer, to.pointer, text, tree.pointer, parents);
      code != 0) {
    return failure(code, "cannot create the commit");
  }
  return std::nullopt;
}

// Gives the commit `commit_id` the note `note` in k_notes_ref, replacing
// one it had (a step redone can make the same commit); nothing for an empty
// note. Written before HEAD moves: a crash leaves at worst a note on a commit
// no branch holds. nullopt when it worked.
std::optional<Failure> add_note(git_repository* repository, const git_oid& commit_id,
                                const Signature& by, std::string_view note) {
  if (note.empty()) {
    return std::nullopt;
  }
  GitSignature signature;
  if (git_signature_now(&signature.pointer, by.name.c_str(), by.email.c_str()) != 0) {
    return Failure{last_error("invalid note signature")};
  }
  const std::string text(note);
  git_oid note_id;
  fresh_errors();
  if (const int code = git_note_create(&note_id, repository, k_notes_ref, signature.pointer,
                                       signature.pointer, &commit_id, text.c_str(), 1);
      code != 0) {
    return failure(code, "cannot write the commit's note");
  }
  return std::nullopt;
}

// Creates the empty file `marker`; nullopt when it worked.
std::optional<Failure> write_marker(const std::filesystem::path& marker) {
  const int descriptor = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (descriptor < 0) {
    return Failure{fmt::format("cannot create {}: {}", marker.string(), std::strerror(errno))};
  }
  ::close(descriptor);
  return std::nullopt;
}

// True when another process holds the index's lock file (a `git commit` of
// the user's, from its start until its own HEAD moves).
bool index_locked(git_index* index) {
  const char* file = git_index_path(index);
  std::error_code error;
  return file != nullptr && std::filesystem::exists(std::string(file) + ".lock", error);
}

// HEAD's commit into `head` and its id into `id`; nothing when HEAD is
// unborn (the first commit). nullopt when it worked.
std::optional<Failure> read_head(git_repository* repository, Commit& head, git_oid& id) {
  const int found = git_reference_name_to_id(&id, repository, "HEAD");
  if (found == GIT_ENOTFOUND) {
    return std::nullopt;
  }
  if (found != 0) {
    return failure(found, "cannot resolve HEAD");
  }
  if (const int code = git_commit_lookup(&head.pointer, repository, &id); code != 0) {
    return failure(code, "cannot read HEAD's commit");
  }
  return std::nullopt;
}

// True when committing `tree` as a merge of `merged` into `head` would add
// nothing to `merged`: HEAD is unborn or an ancestor of it and the tree is
// its own. HEAD then moves to it, as `git merge` fast-forwards.
bool fast_forwards(git_repository* repository, const git_commit* head, const git_commit* merged,
                   const git_oid& tree) {
  if (git_oid_equal(git_commit_tree_id(merged), &tree) == 0) {
    return false;
  }
  return head == nullptr ||
         git_graph_descendant_of(repository, git_commit_id(merged), git_commit_id(head)) == 1;
}

// HEAD's tree `head` with `paths` as `index` has them (absent: removed);
// false when that cannot be done so (a file where a folder is, say).
bool updated_tree(git_oid& out, git_repository* repository, git_index* index, git_tree* head,
                  const std::vector<std::string>& paths) {
  // Only the folders along the paths are written: writing the tree from the
  // whole index reads every folder of the store back afterwards.
  std::vector<git_tree_update> updates;
  updates.reserve(paths.size());
  for (const auto& path : paths) {
    git_tree_update update{};
    update.path = path.c_str();
    if (const git_index_entry* entry = git_index_get_bypath(index, path.c_str(), 0)) {
      update.action = GIT_TREE_UPDATE_UPSERT;
      git_oid_cpy(&update.id, &entry->id);
      update.filemode = static_cast<git_filemode_t>(entry->mode);
    } else {
      TreeEntry there;
      if (git_tree_entry_bypath(&there.pointer, head, path.c_str()) != 0) {
        continue; // neither staged nor in HEAD: nothing to remove
      }
      update.action = GIT_TREE_UPDATE_REMOVE;
    }
    updates.push_back(update);
  }
  return git_tree_create_updated(&out, repository, head, updates.size(), updates.data()) == 0;
}

// Writes the tree to commit: HEAD's (`head`'s) updated at `paths` when
// given and that can be done, else the whole index's. nullopt when it worked.
std::optional<Failure> write_tree(git_oid& out, git_repository* repository, git_index* index,
                                  const git_commit* head, const std::vector<std::string>* paths) {
  Tree head_tree;
  const bool updated = paths != nullptr && head != nullptr &&
                       git_commit_tree(&head_tree.pointer, head) == 0 &&
                       updated_tree(out, repository, index, head_tree.pointer, *paths);
  if (!updated) {
    if (const int code = git_index_write_tree(&out, index); code != 0) {
      return failure(code, "cannot write the tree");
    }
  }
  return std::nullopt;
}

// Points HEAD (its branch, or HEAD itself when detached) at `commit`,
// provided it still points at `expected` (nullptr: unborn). Logged in the
// reflog as git does.
std::optional<Failure> move_head(git_repository* repository, const git_oid& commit,
                                 const git_oid* expected, std::string_view message) {
  // HEAD names a branch (possibly unborn) or, detached, a commit itself.
  std::string name = "HEAD";
  Reference head;
  if (git_reference_lookup(&head.pointer, repository, "HEAD") == 0 &&
      git_reference_type(head.pointer) == GIT_REFERENCE_SYMBOLIC) {
    name = git_reference_symbolic_target(head.pointer);
  }
  const auto summary = message.substr(0, message.find('\n'));
  const std::string log =
      fmt::format("commit{}: {}", expected == nullptr ? " (initial)" : "", summary);
  Reference moved;
  fresh_errors();
  const int code =
      expected != nullptr
          ? git_reference_create_matching(&moved.pointer, repository, name.c_str(), &commit, 1,
                                          expected, log.c_str())
          : git_reference_create(&moved.pointer, repository, name.c_str(), &commit, 0, log.c_str());
  if (code != 0) {
    return failure(code, "cannot move HEAD to the new commit");
  }
  return std::nullopt;
}

} // namespace

Expected<CommitId, Failure> Repository::commit_staged(std::string_view message,
                                                      const Signature& author,
                                                      const Signature& committer,
                                                      const std::vector<std::string>* paths,
                                                      std::string_view note) {
  Index index;
  if (const int code = git_repository_index(&index.pointer, m_repository.get()); code != 0) {
    return unexpected(failure(code, "cannot read the index"));
  }
  auto committed = commit_index(index.pointer, message, author, committer, paths, note);
  if (!committed) {
    git_index_read(index.pointer, 1); // a retry stages again from what is on disk
  }
  return committed;
}

Expected<CommitId, Failure> Repository::commit_merge(const std::vector<std::string>& paths,
                                                     const std::string& merged,
                                                     std::string_view message,
                                                     const Signature& signature,
                                                     std::string_view note) {
  git_oid merged_id;
  if (git_oid_fromstr(&merged_id, merged.c_str()) != 0) {
    return unexpected(Failure{fmt::format("'{}' is not a commit id", merged)});
  }
  const auto staged = stage_paths(paths, Unreadable::fail);
  if (!staged) {
    return unexpected(staged.error());
  }
  Index index;
  if (const int code = git_repository_index(&index.pointer, m_repository.get()); code != 0) {
    return unexpected(failure(code, "cannot read the index"));
  }
  auto committed =
      commit_index(index.pointer, message, signature, signature, &*staged, note, &merged_id);
  if (!committed) {
    git_index_read(index.pointer, 1); // a retry stages again from what is on disk
  }
  return committed;
}

Expected<CommitId, Failure> Repository::commit_index(git_index* index, std::string_view message,
                                                     const Signature& author,
                                                     const Signature& committer,
                                                     const std::vector<std::string>* paths,
                                                     std::string_view note, const git_oid* merged) {
  git_repository* repository = m_repository.get();
  // The order: every object first (blobs, trees, the commit), one flush
  // making them durable together, then HEAD, then a flush making HEAD
  // durable, then the index, as git does. HEAD never names an object that a
  // crash could lose. A marker made before HEAD moves, and removed once the
  // index is written, tells the next session that a process died between
  // the two: it brings the index up to HEAD (catch_up_index).
  StepTimer timer;
  // Version 4, paths prefix-compressed, as git's feature.manyFiles: a third
  // less to write on every commit of a large store; git reads it since 1.8.
  if (git_index_version(index) < 4 && git_index_set_version(index, 4) != 0) {
    return unexpected(failure(-1, "cannot set the index's version"));
  }
  Commit parent;
  git_oid head_id;
  if (auto failed = read_head(repository, parent, head_id)) {
    return unexpected(std::move(*failed));
  }
  const git_oid* expected = parent.pointer != nullptr ? &head_id : nullptr;
  git_oid tree_id;
  if (auto failed = write_tree(tree_id, repository, index, parent.pointer, paths)) {
    return unexpected(std::move(*failed));
  }
  timer.step("tree");
  Commit other;
  if (merged != nullptr) {
    if (const int code = git_commit_lookup(&other.pointer, repository, merged); code != 0) {
      return unexpected(failure(code, "cannot read the commit being merged"));
    }
    if (fast_forwards(repository, parent.pointer, other.pointer, tree_id)) {
      if (auto failed = flush()) {
        return unexpected(std::move(*failed));
      }
      return land(*merged, expected, normalise_message(message), index);
    }
  }
  if (other.pointer == nullptr && parent.pointer != nullptr &&
      git_oid_equal(git_commit_tree_id(parent.pointer), &tree_id) != 0) {
    // HEAD holds this tree already: nothing to commit, and the index
    // (what was staged, stat data refreshed) is written all the same.
    if (auto failed = flush()) {
      return unexpected(std::move(*failed));
    }
    if (const int code = git_index_write(index); code != 0) {
      return unexpected(failure(code, "cannot write the index"));
    }
    return CommitId{};
  }

  const std::string text = normalise_message(message);
  git_oid commit_id;
  std::vector<const git_commit*> parents;
  if (parent.pointer != nullptr) {
    parents.push_back(parent.pointer);
  }
  if (other.pointer != nullptr) {
    parents.push_back(other.pointer);
  }
  if (auto failed = new_commit(commit_id, repository, author, committer, text, tree_id, parents)) {
    return unexpected(std::move(*failed));
  }
  if (auto failed = add_note(repository, commit_id, committer, note)) {
    return unexpected(std::move(*failed));
  }
  timer.step("commit object");
  // The objects are durable before HEAD names them, and HEAD is durable
  // before the caller moves on (and clears its working state).
  if (auto failed = flush()) {
    return unexpected(std::move(*failed));
  }
  timer.step("flush");
  spdlog::debug("{}: commit: {}", m_workdir.string(), timer.line());
  return land(commit_id, expected, text, index);
}

Expected<CommitId, Failure> Repository::land(const git_oid& commit_id, const git_oid* expected,
                                             const std::string& text, git_index* index) {
  if (index_locked(index)) {
    // A git command of the user's holds the index, as `git commit` does
    // from its start until its own HEAD moves: HEAD is left to it, and the
    // step is redone once it is done (Locked::yes).
    git_error_set_str(GIT_ERROR_INDEX, "the index is locked (index.lock): a git command is "
                                       "writing it");
    return unexpected(failure(GIT_ELOCKED, "cannot write the index"));
  }
  StepTimer timer;
  if (auto made = write_marker(behind_marker(gitdir()))) {
    return unexpected(std::move(*made));
  }
  if (auto failed = move_head(m_repository.get(), commit_id, expected, text)) {
    return unexpected(std::move(*failed));
  }
  timer.step("head");
  if (auto failed = flush()) {
    return unexpected(std::move(*failed));
  }
  timer.step("flush");
  fault_point("before-index-write");
  const int written = git_index_write(index);
  timer.step("index");
  spdlog::debug("{}: land: {}", m_workdir.string(), timer.line());
  if (written != 0) {
    // HEAD and the objects are durable: only git's cache of the staging
    // area is behind. The marker left tells engram's next session to bring
    // it up to HEAD, and the next commit writes it too.
    spdlog::warn("{}: the index was not written after the commit ({}); `git status` shows the "
                 "store as changed until engram's next run writes it",
                 m_workdir.string(), last_error("cannot write the index"));
  } else {
    std::error_code error;
    std::filesystem::remove(behind_marker(gitdir()), error);
  }
  return CommitId{to_hex(commit_id)};
}

} // namespace engram::git
