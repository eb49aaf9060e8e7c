// Undo: rollback and restore computed in memory from the history, checked
// before anything is written, then applied as one transaction.
#include "engine/undo.hpp"

#include "base/error.hpp"
#include "engine/holds.hpp"
#include "git/history.hpp"

#include <fmt/format.h>
#include <map>

namespace engram::engine {

namespace fs = std::filesystem;

namespace {

// One file change from its blob in HEAD (nullopt: none) to blob `after` (nullopt: removed).
FileChange change_of(const git::Repository& repository, const std::string& path,
                     const std::optional<std::string>& before,
                     const std::optional<std::string>& after) {
  FileChange change{path, before, nullptr, std::nullopt};
  if (before) {
    change.base_bytes = std::make_shared<const std::string>(git::blob_bytes(repository, *before));
  }
  if (after) {
    change.new_bytes = git::blob_bytes(repository, *after);
  }
  return change;
}

// `changes` ordered as a plan is: writes by path, then removals by path.
std::vector<FileChange> plan_order(std::vector<FileChange> changes) {
  std::stable_sort(changes.begin(), changes.end(), [](const FileChange& a, const FileChange& b) {
    if (a.new_bytes.has_value() != b.new_bytes.has_value()) {
      return a.new_bytes.has_value();
    }
    return a.path < b.path;
  });
  return changes;
}

// "re-created", "removed" or `verb` for one change, as the commit body says it.
std::string_view change_verb(const FileChange& change, std::string_view verb) {
  if (!change.base_hash) {
    return "re-created";
  }
  return change.new_bytes ? verb : "removed";
}

// The body lines listing what a rollback or restore changed, and what it had to leave.
std::string files_body(const std::vector<FileChange>& changes, const ApplyResult& applied,
                       std::string_view verb) {
  std::string body;
  for (const auto& change : changes) {
    if (std::find(applied.deferred.begin(), applied.deferred.end(), change.path) ==
        applied.deferred.end()) {
      body += fmt::format("- {} {}\n", change_verb(change, verb), change.path);
    }
  }
  if (!applied.deferred.empty()) {
    body += "\nLeft as they were (changed while engram worked; run the command again):\n";
    for (const auto& path : applied.deferred) {
      body += "- " + path + "\n";
    }
  }
  return body;
}

// The trailers naming the files an undo holds (holds.hpp): what it changed,
// less what it had to leave and the generated index.
std::string hold_trailers(const store::Layout& layout, const std::vector<FileChange>& changes,
                          const ApplyResult& applied) {
  std::string trailers;
  for (const auto& change : changes) {
    if (holdable(layout, change.path) && std::find(applied.deferred.begin(), applied.deferred.end(),
                                                   change.path) == applied.deferred.end()) {
      trailers += fmt::format("{}: {}\n", k_hold_trailer, change.path);
    }
  }
  return trailers;
}

// What the body says of the hold, when there is one.
constexpr std::string_view k_hold_note =
    "\nThe rules leave these files as they are until one of them changes.\n";

// The revert of `id` onto HEAD; throws engram::Error, naming the files, when it conflicts.
git::Revert checked_revert(const Session& session, const git::Repository& repository,
                           const std::string& id, const std::string& summary) {
  auto revert = git::revert_onto_head(repository, id);
  if (!revert) {
    throw Error("{}: cannot roll back: {}; nothing was changed", session.root().string(),
                revert.error());
  }
  if (!revert->conflicts.empty()) {
    std::string files;
    for (const auto& path : revert->conflicts) {
      files += (files.empty() ? "" : ", ") + path;
    }
    throw Error("{}: cannot roll back {} ({}): later changes touch the same lines in {}; nothing "
                "was changed. Roll back those later commits first, or bring single files back "
                "with `engram restore`",
                session.root().string(), git::short_id(id), summary, files);
  }
  return std::move(revert).value();
}

// The commit `rev` names, with its summary; throws engram::Error when none.
std::pair<std::string, std::string>
target_of(const Session& session, const git::Repository& repository, std::string_view rev) {
  auto id = git::resolve(repository, rev);
  if (!id) {
    throw Error("{}: {}", session.root().string(), id.error());
  }
  return {*id, git::show(repository, *id).entry.summary};
}

} // namespace

Expected<std::string, std::string> store_relative(const fs::path& root, const store::Layout& layout,
                                                  const std::string& path) {
  if (path.empty()) {
    return unexpected(std::string("an empty path names no file"));
  }
  fs::path relative = fs::path(path).lexically_normal();
  if (relative.is_absolute()) {
    std::error_code error;
    const fs::path canonical_root = fs::weakly_canonical(root, error);
    relative = fs::weakly_canonical(relative, error).lexically_relative(canonical_root);
  }
  std::string text = relative.generic_string();
  while (text.size() > 1 && text.ends_with('/')) {
    text.pop_back();
  }
  if (text.empty()) {
    text = ".";
  }
  const std::string first = fs::path(text).begin()->string();
  if (first == ".." || text.find("/../") != std::string::npos) {
    return unexpected(fmt::format("{} is outside the store {}", path, root.string()));
  }
  if (first == ".git" || first == layout.state) {
    return unexpected(fmt::format("{} is git's or engram's own state, not a memory file", path));
  }
  return text;
}

Undone rollback(const fs::path& root, const config::Settings& settings, std::string_view rev,
                DryRun dry) {
  Undone undone;
  Session session = Session::open(root, settings);
  git::Repository& repository = session.repository();
  // `rev` names a commit of the history as the user saw it, before an
  // interrupted run is finished: `rollback HEAD` run again after a rollback
  // that ran out of space is the same rollback, not the undoing of its own
  // recovered commit.
  std::tie(undone.target, undone.target_summary) = target_of(session, repository, rev);
  if (dry == DryRun::no) {
    undone.recovery = finish_interrupted(session);
  }

  // Checked before anything is committed: a rollback that cannot be done
  // changes nothing, not even by snapshotting the agent's edits.
  auto revert = checked_revert(session, repository, undone.target, undone.target_summary);
  if (dry == DryRun::no && !agent_changes(repository, session.layout()).empty()) {
    undone.snapshot = snapshot(session);
    revert = checked_revert(session, repository, undone.target, undone.target_summary);
  }
  for (const auto& change : revert.changes) {
    undone.changes.push_back(change_of(repository, change.path, change.before, change.after));
  }
  undone.changes = plan_order(std::move(undone.changes));
  if (undone.changes.empty() || dry == DryRun::yes) {
    return undone; // HEAD already undoes it, or only the changes were asked for
  }
  Pending pending;
  pending.operation = "rollback";
  undone.committed = apply_and_commit(
      session, undone.changes, std::move(pending), [&](const ApplyResult& applied) {
        const auto holds = hold_trailers(session.layout(), undone.changes, applied);
        return CommitText{
            fmt::format("rollback: {}\n\nReverts {} ({}):\n{}{}\nEngram-Run: rollback\n"
                        "Reverts: {}\n{}",
                        undone.target_summary, git::short_id(undone.target), undone.target_summary,
                        files_body(undone.changes, applied, "reverted"),
                        holds.empty() ? "" : k_hold_note, undone.target, holds),
            {}};
      });
  return undone;
}

Undone restore(const fs::path& root, const config::Settings& settings, std::string_view rev,
               const std::vector<std::string>& paths, DryRun dry) {
  Undone undone;
  Session session = Session::open(root, settings);
  git::Repository& repository = session.repository();
  // As in rollback: `rev` is resolved before an interrupted run is finished.
  std::tie(undone.target, undone.target_summary) = target_of(session, repository, rev);
  if (dry == DryRun::no) {
    undone.recovery = finish_interrupted(session);
  }

  std::map<std::string, std::string> wanted; // path → blob at the target
  for (const auto& path : paths) {
    const auto relative = store_relative(root, session.layout(), path);
    if (!relative) {
      throw Error("{}: cannot restore: {}; nothing was changed", root.string(), relative.error());
    }
    const auto files = git::files_at(repository, undone.target, *relative);
    if (files.empty()) {
      throw Error("{}: cannot restore {}: it was not in {} ({}); nothing was changed",
                  root.string(), path, git::short_id(undone.target), undone.target_summary);
    }
    wanted.insert(files.begin(), files.end());
  }

  if (dry == DryRun::no) {
    undone.snapshot = snapshot(session);
  }
  for (const auto& [path, blob] : wanted) {
    const auto now = git::blob_in_head(repository, path);
    if (now != blob) {
      undone.changes.push_back(change_of(repository, path, now, blob));
    }
  }
  if (undone.changes.empty() || dry == DryRun::yes) {
    return undone; // already as they were, or only the changes were asked for
  }
  Pending pending;
  pending.operation = "restore";
  const std::size_t n = undone.changes.size();
  undone.committed = apply_and_commit(
      session, undone.changes, std::move(pending), [&](const ApplyResult& applied) {
        const auto holds = hold_trailers(session.layout(), undone.changes, applied);
        return CommitText{
            fmt::format("restore: {} file{} as at {}\n\nBrings back, as they were at {} ({}):\n"
                        "{}{}\nEngram-Run: restore\nRestores: {}\n{}",
                        n, n == 1 ? "" : "s", git::short_id(undone.target),
                        git::short_id(undone.target), undone.target_summary,
                        files_body(undone.changes, applied, "restored"),
                        holds.empty() ? "" : k_hold_note, undone.target, holds),
            {}};
      });
  return undone;
}

} // namespace engram::engine
