// History over libgit2: walking, describing and reverting commits in memory.
#include "git/history.hpp"

#include "base/error.hpp"
#include "git/libgit2.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace engram::git {

namespace {

using namespace detail;

// The commit with id `id`; throws engram::Error when it cannot be read.
void lookup_commit(Commit& commit, git_repository* repository, const std::string& id) {
  git_oid oid;
  if (git_oid_fromstr(&oid, id.c_str()) != 0 ||
      git_commit_lookup(&commit.pointer, repository, &oid) != 0) {
    throw Error(last_error(fmt::format("cannot read commit {}", id)));
  }
}

// The tree of the commit with id `id`; throws engram::Error when it cannot be read.
void lookup_tree(Tree& tree, git_repository* repository, const std::string& id) {
  Commit commit;
  lookup_commit(commit, repository, id);
  if (git_commit_tree(&tree.pointer, commit.pointer) != 0) {
    throw Error(last_error(fmt::format("cannot read the tree of {}", id)));
  }
}

// The files a diff of two trees changed, with their blobs, sorted by path.
std::vector<TreeChange> changes_of(git_diff* diff) {
  std::vector<TreeChange> out;
  for (std::size_t i = 0; i < git_diff_num_deltas(diff); ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff, i);
    TreeChange change;
    change.path = delta_path(delta);
    if (delta->status != GIT_DELTA_ADDED) {
      change.before = to_hex(delta->old_file.id);
    }
    if (delta->status != GIT_DELTA_DELETED) {
      change.after = to_hex(delta->new_file.id);
    }
    out.push_back(std::move(change));
  }
  std::sort(out.begin(), out.end(),
            [](const TreeChange& a, const TreeChange& b) { return a.path < b.path; });
  return out;
}

// The tree of `commit`'s first parent, or nullptr (with nothing owned) for a first commit.
void first_parent_tree(Tree& tree, const git_commit* commit) {
  if (git_commit_parentcount(commit) == 0) {
    return;
  }
  Commit parent;
  if (git_commit_parent(&parent.pointer, commit, 0) != 0 ||
      git_commit_tree(&tree.pointer, parent.pointer) != 0) {
    throw Error(last_error("cannot read a parent commit"));
  }
}

// The diff from `commit`'s first parent to it, without rename detection.
void diff_of(Diff& diff, git_repository* repository, const git_commit* commit) {
  Tree parent_tree;
  first_parent_tree(parent_tree, commit);
  Tree tree;
  if (git_commit_tree(&tree.pointer, commit) != 0 ||
      git_diff_tree_to_tree(&diff.pointer, repository, parent_tree.pointer, tree.pointer,
                            nullptr) != 0) {
    throw Error(last_error("cannot compare a commit with its parent"));
  }
}

// The trailers of a commit message, in order.
std::vector<std::pair<std::string, std::string>> trailers_of(const char* message) {
  std::vector<std::pair<std::string, std::string>> result;
  git_message_trailer_array trailers{};
  if (message != nullptr && git_message_trailers(&trailers, message) == 0) {
    for (std::size_t i = 0; i < trailers.count; ++i) {
      result.emplace_back(trailers.trailers[i].key, trailers.trailers[i].value);
    }
    git_message_trailer_array_free(&trailers);
  }
  return result;
}

// A libgit2 signature as ours; empty when there is none.
Signature signature_of(const git_signature* signature) {
  if (signature == nullptr) {
    return {};
  }
  return Signature{signature->name != nullptr ? signature->name : "",
                   signature->email != nullptr ? signature->email : ""};
}

// The log entry of `commit`, counts included.
LogEntry entry_of(git_repository* repository, const git_commit* commit) {
  LogEntry entry;
  entry.id = to_hex(*git_commit_id(commit));
  entry.time = git_commit_time(commit);
  entry.offset_minutes = git_commit_time_offset(commit);
  entry.author = signature_of(git_commit_author(commit));
  entry.committer = signature_of(git_commit_committer(commit));
  const char* summary = git_commit_summary(const_cast<git_commit*>(commit));
  entry.summary = summary != nullptr ? summary : "";
  for (const auto& [key, value] : trailers_of(git_commit_message(commit))) {
    if (key == "Engram-Run") {
      entry.run = value;
    }
  }
  Diff diff;
  diff_of(diff, repository, commit);
  git_diff_stats* stats = nullptr;
  if (git_diff_get_stats(&stats, diff.pointer) == 0) {
    entry.files_changed = git_diff_stats_files_changed(stats);
    entry.insertions = git_diff_stats_insertions(stats);
    entry.deletions = git_diff_stats_deletions(stats);
    git_diff_stats_free(stats);
  }
  return entry;
}

// The change kind of a diff delta.
ChangeKind kind_of(git_delta_t status) {
  switch (status) {
  case GIT_DELTA_ADDED:
  case GIT_DELTA_UNTRACKED:
    return ChangeKind::added;
  case GIT_DELTA_DELETED:
    return ChangeKind::deleted;
  default:
    return ChangeKind::modified;
  }
}

// HEAD's commit; throws engram::Error when HEAD has none.
void head_commit(Commit& commit, git_repository* repository) {
  git_oid head_id;
  if (git_reference_name_to_id(&head_id, repository, "HEAD") != 0 ||
      git_commit_lookup(&commit.pointer, repository, &head_id) != 0) {
    throw Error(last_error("cannot read HEAD's commit"));
  }
}

} // namespace

std::vector<LogEntry> log(const Repository& repository, std::size_t limit) {
  git_repository* handle = repository.handle();
  std::vector<LogEntry> entries;
  if (!repository.head()) {
    return entries; // no commit yet
  }
  Revwalk walk;
  if (git_revwalk_new(&walk.pointer, handle) != 0 ||
      git_revwalk_sorting(walk.pointer, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME) != 0 ||
      git_revwalk_push_head(walk.pointer) != 0) {
    throw Error(last_error("cannot walk the history"));
  }
  git_oid oid;
  while ((limit == 0 || entries.size() < limit) && git_revwalk_next(&oid, walk.pointer) == 0) {
    Commit commit;
    if (git_commit_lookup(&commit.pointer, handle, &oid) != 0) {
      throw Error(last_error("cannot read a commit"));
    }
    entries.push_back(entry_of(handle, commit.pointer));
  }
  return entries;
}

void walk_trailers(const Repository& repository,
                   const std::function<bool(const TrailedCommit&)>& visit) {
  if (!repository.head()) {
    return;
  }
  Revwalk walk;
  if (git_revwalk_new(&walk.pointer, repository.handle()) != 0 ||
      git_revwalk_simplify_first_parent(walk.pointer) != 0 ||
      git_revwalk_push_head(walk.pointer) != 0) {
    throw Error(last_error("cannot walk the history"));
  }
  git_oid oid;
  while (git_revwalk_next(&oid, walk.pointer) == 0) {
    Commit commit;
    if (git_commit_lookup(&commit.pointer, repository.handle(), &oid) != 0) {
      throw Error(last_error("cannot read a commit"));
    }
    TrailedCommit seen;
    seen.id = to_hex(oid);
    const char* summary = git_commit_summary(commit.pointer);
    seen.summary = summary != nullptr ? summary : "";
    seen.time = git_commit_time(commit.pointer);
    seen.offset_minutes = git_commit_time_offset(commit.pointer);
    seen.trailers = trailers_of(git_commit_message(commit.pointer));
    if (!visit(seen)) {
      return;
    }
  }
}

std::vector<std::string> recent_trailers(const Repository& repository, std::string_view key,
                                         std::size_t limit) {
  std::vector<std::string> values;
  if (limit == 0) {
    return values;
  }
  std::size_t seen = 0;
  walk_trailers(repository, [&](const TrailedCommit& commit) {
    for (const auto& [name, value] : commit.trailers) {
      if (name == key) {
        values.push_back(value);
      }
    }
    return ++seen < limit;
  });
  return values;
}

Expected<std::string, std::string> resolve(const Repository& repository, std::string_view rev) {
  const std::string text(rev);
  Object object;
  Object commit;
  if (git_revparse_single(&object.pointer, repository.handle(), text.c_str()) != 0 ||
      git_object_peel(&commit.pointer, object.pointer, GIT_OBJECT_COMMIT) != 0) {
    return unexpected(last_error(fmt::format("{} names no commit", text)));
  }
  return to_hex(*git_object_id(commit.pointer));
}

std::string note_of(const Repository& repository, const std::string& id) {
  git_oid oid;
  git_note* note = nullptr;
  if (git_oid_fromstr(&oid, id.c_str()) != 0 ||
      git_note_read(&note, repository.handle(), k_notes_ref, &oid) != 0) {
    return {};
  }
  const char* text = git_note_message(note);
  std::string result = text != nullptr ? text : "";
  git_note_free(note);
  return result;
}

CommitDetail show(const Repository& repository, const std::string& id) {
  git_repository* handle = repository.handle();
  Commit commit;
  lookup_commit(commit, handle, id);
  CommitDetail detail;
  detail.entry = entry_of(handle, commit.pointer);
  const char* message = git_commit_message(commit.pointer);
  detail.message = message != nullptr ? message : "";
  detail.trailers = trailers_of(message);
  detail.note = note_of(repository, detail.entry.id);
  for (unsigned int i = 0; i < git_commit_parentcount(commit.pointer); ++i) {
    detail.parents.push_back(to_hex(*git_commit_parent_id(commit.pointer, i)));
  }
  Diff diff;
  diff_of(diff, handle, commit.pointer);
  for (std::size_t i = 0; i < git_diff_num_deltas(diff.pointer); ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.pointer, i);
    detail.files.push_back(FileDiff{delta_path(delta), kind_of(delta->status)});
  }
  std::sort(detail.files.begin(), detail.files.end(),
            [](const FileDiff& a, const FileDiff& b) { return a.path < b.path; });
  return detail;
}

Expected<Revert, std::string> revert_onto_head(const Repository& repository,
                                               const std::string& id) {
  git_repository* handle = repository.handle();
  Commit commit;
  lookup_commit(commit, handle, id);
  if (git_commit_parentcount(commit.pointer) > 1) {
    return unexpected(
        fmt::format("{} is a merge commit; roll back the commits it merged instead", short_id(id)));
  }
  if (git_commit_parentcount(commit.pointer) == 0) {
    return unexpected(fmt::format("{} is the store's first commit; there is nothing before it to "
                                  "go back to (use `engram restore` for single files)",
                                  short_id(id)));
  }
  Commit head;
  head_commit(head, handle);
  Index index;
  if (git_revert_commit(&index.pointer, handle, commit.pointer, head.pointer, 0, nullptr) != 0) {
    return unexpected(last_error(fmt::format("cannot revert {}", short_id(id))));
  }

  Revert revert;
  if (git_index_has_conflicts(index.pointer) != 0) {
    ConflictIterator conflicts;
    if (git_index_conflict_iterator_new(&conflicts.pointer, index.pointer) != 0) {
      return unexpected(last_error("cannot list the conflicts"));
    }
    const git_index_entry* ancestor = nullptr;
    const git_index_entry* ours = nullptr;
    const git_index_entry* theirs = nullptr;
    while (git_index_conflict_next(&ancestor, &ours, &theirs, conflicts.pointer) == 0) {
      const git_index_entry* any = ours != nullptr ? ours : theirs != nullptr ? theirs : ancestor;
      if (any != nullptr) {
        revert.conflicts.emplace_back(any->path);
      }
    }
    std::sort(revert.conflicts.begin(), revert.conflicts.end());
    revert.conflicts.erase(std::unique(revert.conflicts.begin(), revert.conflicts.end()),
                           revert.conflicts.end());
    return revert;
  }

  git_oid tree_id;
  Tree reverted;
  Tree head_tree;
  Diff diff;
  if (git_index_write_tree_to(&tree_id, index.pointer, handle) != 0 ||
      git_tree_lookup(&reverted.pointer, handle, &tree_id) != 0 ||
      git_commit_tree(&head_tree.pointer, head.pointer) != 0 ||
      git_diff_tree_to_tree(&diff.pointer, handle, head_tree.pointer, reverted.pointer, nullptr) !=
          0) {
    return unexpected(last_error(fmt::format("cannot compute the revert of {}", short_id(id))));
  }
  revert.changes = changes_of(diff.pointer);
  return revert;
}

std::vector<std::pair<std::string, std::string>>
files_at(const Repository& repository, const std::string& id, const std::string& path) {
  git_repository* handle = repository.handle();
  Tree tree;
  lookup_tree(tree, handle, id);
  std::vector<std::pair<std::string, std::string>> files;
  const bool whole = path.empty() || path == ".";
  TreeEntry entry;
  Tree folder;
  if (!whole) {
    if (git_tree_entry_bypath(&entry.pointer, tree.pointer, path.c_str()) != 0) {
      return files;
    }
    if (git_tree_entry_type(entry.pointer) == GIT_OBJECT_BLOB) {
      files.emplace_back(path, to_hex(*git_tree_entry_id(entry.pointer)));
      return files;
    }
    if (git_tree_entry_type(entry.pointer) != GIT_OBJECT_TREE ||
        git_tree_lookup(&folder.pointer, handle, git_tree_entry_id(entry.pointer)) != 0) {
      return files;
    }
  }
  // git_tree_walk gives each blob's folder relative to the walked tree.
  struct Walk {
    std::string prefix;
    std::vector<std::pair<std::string, std::string>>& files;
  } walk{whole ? std::string() : path + "/", files};
  git_tree_walk(
      whole ? tree.pointer : folder.pointer, GIT_TREEWALK_PRE,
      [](const char* root, const git_tree_entry* item, void* payload) {
        auto* state = static_cast<Walk*>(payload);
        if (git_tree_entry_type(item) == GIT_OBJECT_BLOB) {
          state->files.emplace_back(state->prefix + root + git_tree_entry_name(item),
                                    to_hex(*git_tree_entry_id(item)));
        }
        return 0;
      },
      &walk);
  std::sort(files.begin(), files.end());
  return files;
}

std::optional<std::string> blob_in_head(const Repository& repository, const std::string& path) {
  const auto head = repository.head();
  if (!head) {
    return std::nullopt;
  }
  const auto files = files_at(repository, *head, path);
  if (files.size() == 1 && files.front().first == path) {
    return files.front().second;
  }
  return std::nullopt;
}

std::vector<TreeChange> changed_between(const Repository& repository,
                                        const std::optional<std::string>& from,
                                        const std::string& to) {
  git_repository* handle = repository.handle();
  Tree before;
  if (from) {
    lookup_tree(before, handle, *from);
  }
  Tree after;
  lookup_tree(after, handle, to);
  Diff diff;
  if (git_diff_tree_to_tree(&diff.pointer, handle, before.pointer, after.pointer, nullptr) != 0) {
    throw Error(last_error(
        fmt::format("cannot compare the trees of {} and {}", from.value_or("nothing"), to)));
  }
  return changes_of(diff.pointer);
}

std::string blob_bytes(const Repository& repository, const std::string& id) {
  auto bytes = repository.read_blob(id);
  if (!bytes) {
    throw Error("blob {} is missing from the repository; run `git fsck`", id);
  }
  return std::move(*bytes);
}

} // namespace engram::git
