// Repository's commits: what was staged made a tree, a commit and HEAD's
// new target, with the index, in the order a crash cannot break (see
// commit_index).
#include "git/repository.hpp"

#include "base/fault.hpp"
#include "base/step_timer.hpp"
#include "git/folders.hpp"
#include "git/index_file.hpp"
#include "git/libgit2.hpp"
#include "git/retired_files.hpp"

#include <fmt/format.h>
#include <optional>
#include <spdlog/spdlog.h>
#include <string>
#include <vector>

namespace engram::git {

using detail::Commit;
using detail::failure;
using detail::fresh_errors;
using detail::GitSignature;
using detail::Index;
using detail::last_error;
using detail::Owned;
using detail::Reference;
using detail::to_hex;
using detail::Tree;

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

// Writes a commit object of `tree` with `parent` (or none) and sets `out` to
// its id. Not git_commit_create: libgit2 1.5's returns 0 when the object
// database fails to write the commit (out of space, say), and HEAD would
// then be moved to a commit that does not exist. git_odb_write reports it.
int write_commit(git_oid& out, git_repository* repository, const git_signature* author,
                 const git_signature* committer, const std::string& text, const git_tree* tree,
                 const git_commit* parent) {
  const git_commit* parents[] = {parent};
  git_buf bytes = GIT_BUF_INIT;
  int code = git_commit_create_buffer(&bytes, repository, author, committer, nullptr, text.c_str(),
                                      tree, parent != nullptr ? 1 : 0, parents);
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

// How long the index's writer waits out another process's index.lock once
// HEAD has moved (`git status` takes it to refresh the index).
constexpr std::chrono::milliseconds k_index_lock_wait{5000};

} // namespace

Expected<CommitId, Failure> Repository::commit_staged(std::string_view message,
                                                      const Signature& author,
                                                      const Signature& committer,
                                                      const std::vector<std::string>* paths) {
  settle_index();
  Index index;
  if (const int code = git_repository_index(&index.pointer, m_repository.get()); code != 0) {
    return unexpected(failure(code, "cannot read the index"));
  }
  auto committed = commit_index(index.pointer, message, author, committer, paths);
  if (!committed) {
    git_index_read(index.pointer, 1); // a retry stages again from what is on disk
  }
  return committed;
}

bool Repository::updated_tree(git_oid& out, git_index* index, git_tree* head,
                              const std::vector<std::string>& paths) const {
  // Only the folders along the paths are written, from their parsed form
  // (detail::Folders): libgit2's tree updates parse a folder's tree again on
  // each commit (20,000 entries in a big semantic/) to change one entry.
  std::vector<detail::TreeChange> changes;
  changes.reserve(paths.size());
  for (const auto& path : paths) {
    detail::TreeChange change{path, std::nullopt};
    if (const git_index_entry* entry = git_index_get_bypath(index, path.c_str(), 0)) {
      change.to.emplace(entry->id, entry->mode);
    }
    changes.push_back(std::move(change));
  }
  return m_folders->update(m_repository.get(), git_tree_id(head), changes, out);
}

Expected<CommitId, Failure> Repository::commit_index(git_index* index, std::string_view message,
                                                     const Signature& author,
                                                     const Signature& committer,
                                                     const std::vector<std::string>* paths) {
  git_repository* repository = m_repository.get();
  // The order: every object first (blobs, trees, the commit), one flush
  // making them durable together, then HEAD, then a flush making HEAD
  // durable, then the index. HEAD never names an object that a crash could
  // lose. Two flushes a commit, not three: each is a syncfs, which on a
  // small commit costs more than anything else it does.
  //
  // The index's file is made and put in place by a helper thread once HEAD
  // is durable (detail::IndexFile): on a 100,000-file store it is 7.2 MB to
  // hash and write, and the commit does not wait for it. The next use of
  // the index waits for it (settle_index), and so does the daemon when a
  // run is done. A marker made before HEAD moves, and removed with the
  // file in place, tells the next session that a process died between the
  // two: it brings the index up to HEAD (catch_up_index). Made in the same
  // journal as HEAD's move, the final flush makes the two durable together.
  // The index's version first: 4, paths prefix-compressed, as git's
  // feature.manyFiles: a third less to hash and write (10.5 -> 7.2 MB). git
  // reads it since 1.8.0; libgit2 keeps the version it read, so an index is
  // converted once.
  //
  // The very first index, and records only libgit2 writes, are written by
  // libgit2 before HEAD moves, as git does; an index with conflicts, by
  // libgit2 once HEAD has moved (see IndexFile::finish).
  StepTimer timer;
  settle_index();
  if (git_index_version(index) < 4 && git_index_set_version(index, 4) != 0) {
    return unexpected(failure(-1, "cannot set the index's version"));
  }
  std::optional<detail::IndexFile> index_file = detail::IndexFile::start(repository, index);
  timer.step("index helper");
  const auto write_index = [&]() -> std::optional<Failure> {
    if (index_file) {
      return std::nullopt; // published after HEAD (publish_index)
    }
    if (const char* file = git_index_path(index)) {
      m_retired->hold(file);
    }
    if (const int code = git_index_write(index); code != 0) {
      return failure(code, "cannot write the index");
    }
    fault_point("after-index-write");
    return std::nullopt;
  };
  const auto publish_index = [&] {
    if (index_file) {
      fault_point("before-index-write");
      index_file->publish(k_index_lock_wait);
      m_index_file = std::make_unique<detail::IndexFile>(std::move(*index_file));
    }
    m_folders->deflate_later();
  };

  Commit parent;
  git_oid head_id;
  const int head_result = git_reference_name_to_id(&head_id, repository, "HEAD");
  if (head_result == 0) {
    if (const int code = git_commit_lookup(&parent.pointer, repository, &head_id); code != 0) {
      return unexpected(failure(code, "cannot read HEAD's commit"));
    }
  } else if (head_result != GIT_ENOTFOUND) {
    return unexpected(failure(head_result, "cannot resolve HEAD"));
  }
  // With the paths known, only the folders along them are written: writing
  // the tree from the index reads every folder of the store back afterwards
  // (libgit2 refills its tree cache), which grows with the store.
  git_oid tree_id;
  Tree head_tree;
  const bool updated = paths != nullptr && parent.pointer != nullptr &&
                       git_commit_tree(&head_tree.pointer, parent.pointer) == 0 &&
                       updated_tree(tree_id, index, head_tree.pointer, *paths);
  if (!updated) {
    if (const int code = git_index_write_tree(&tree_id, index); code != 0) {
      return unexpected(failure(code, "cannot write the tree"));
    }
  }
  timer.step("tree");
  Tree tree;
  if (const int code = git_tree_lookup(&tree.pointer, repository, &tree_id); code != 0) {
    return unexpected(failure(code, "cannot read the new tree"));
  }
  if (parent.pointer != nullptr &&
      git_oid_equal(git_commit_tree_id(parent.pointer), &tree_id) != 0) {
    // HEAD holds this tree already: nothing to commit, and the index
    // (what was staged, stat data refreshed) is written all the same.
    if (auto failed = flush(); failed || (failed = write_index())) {
      return unexpected(std::move(*failed));
    }
    publish_index();
    m_retired->close_later();
    return CommitId{};
  }

  GitSignature author_signature;
  GitSignature committer_signature;
  if (git_signature_now(&author_signature.pointer, author.name.c_str(), author.email.c_str()) !=
          0 ||
      git_signature_now(&committer_signature.pointer, committer.name.c_str(),
                        committer.email.c_str()) != 0) {
    return unexpected(Failure{last_error("invalid commit signature")});
  }
  const std::string text = normalise_message(message);
  git_oid commit_id;
  if (const int code = write_commit(commit_id, repository, author_signature.pointer,
                                    committer_signature.pointer, text, tree.pointer, parent.pointer);
      code != 0) {
    return unexpected(failure(code, "cannot create the commit"));
  }
  timer.step("commit object");
  // The objects are durable before the index and HEAD name them, and HEAD
  // is durable before the caller moves on (and clears its working state).
  if (auto failed = flush()) {
    return unexpected(std::move(*failed));
  }
  timer.step("flush");
  if (auto failed = write_index()) {
    return unexpected(std::move(*failed));
  }
  if (!index_file) {
    timer.step("index");
  } else {
    if (index_file->locked()) {
      // A git command of the user's holds the index, as `git commit` does
      // from its start until its own HEAD moves: HEAD is left to it, and
      // the step is redone once it is done (Locked::yes), as when libgit2
      // writing the index itself meets the lock.
      git_error_set_str(GIT_ERROR_INDEX, "the index is locked (index.lock): a git command is "
                                         "writing it");
      return unexpected(failure(GIT_ELOCKED, "cannot write the index"));
    }
    if (const int code = index_file->mark_behind(gitdir()); code != 0) {
      return unexpected(failure(code, "cannot write the index"));
    }
  }
  if (auto failed = move_head(commit_id, head_result == 0 ? &head_id : nullptr, text)) {
    return unexpected(std::move(*failed));
  }
  timer.step("HEAD");
  if (auto failed = flush()) {
    return unexpected(std::move(*failed));
  }
  timer.step("flush");
  publish_index();
  m_retired->close_later();
  timer.step("helpers told");
  spdlog::debug("{}: commit: {}", m_workdir.string(), timer.line());
  return CommitId{to_hex(commit_id)};
}

std::optional<Failure> Repository::move_head(const git_oid& commit, const git_oid* expected,
                                             std::string_view message) {
  git_repository* repository = m_repository.get();
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
  if (name == "HEAD" || name.starts_with("refs/")) {
    m_retired->hold(gitdir() / name); // a loose ref's file, replaced by the move
  }
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

} // namespace engram::git
