// Undo: `engram rollback` (a new commit that reverts one earlier commit) and
// `engram restore` (a new commit that brings files back as they were at one).
// Neither rewrites history, and both write through the same transaction as a
// consolidation: new content first, removals last, then the commit.
#pragma once

#include "config/config.hpp"
#include "engine/plan.hpp"
#include "engine/recovery.hpp"
#include "engine/snapshot.hpp"
#include "engine/transaction.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::engine {

// What a rollback or a restore did.
struct Undone {
  std::string target;               // the commit reverted or restored from (full id)
  std::string target_summary;       // its summary line
  Recovery recovery;                // an interrupted change, finished first
  std::optional<Snapshot> snapshot; // the agent's changes, committed first
  std::vector<FileChange> changes;  // what it set out to write and remove
  Committed committed;              // what landed, and the new commit (nullopt: nothing to do)
};

// Reverts commit `rev` with a new commit (`rollback: <its summary>`, trailers
// `Engram-Run: rollback` and `Reverts: <id>`). Throws engram::Error, changing
// no file, when `rev` names no commit, a merge or the first commit, or when
// later changes touched the same lines (the message names those files).
// With DryRun::yes it computes the same changes against HEAD and stops
// before anything is written: no recovery, no snapshot, no commit.
Undone rollback(const std::filesystem::path& root, const config::Settings& settings,
                std::string_view rev, DryRun dry = DryRun::no);

// Brings each of `paths` (store-relative or absolute inside the store; a
// folder means every file under it; "." the whole store) back to its content
// at `rev`, as one new commit (`restore: …`, trailers `Engram-Run: restore`
// and `Restores: <id>`). Files added since are kept: restore removes nothing.
// Throws engram::Error, changing nothing, when a path is outside the store or
// was not in `rev`. DryRun::yes stops before anything is written, as rollback's.
Undone restore(const std::filesystem::path& root, const config::Settings& settings,
               std::string_view rev, const std::vector<std::string>& paths,
               DryRun dry = DryRun::no);

// `path` as a store-relative, '/'-separated path ("." for the root), or a
// message saying why it cannot be one (outside the store, `..`, `.git`, the
// state folder).
[[nodiscard]] Expected<std::string, std::string> store_relative(const std::filesystem::path& root,
                                                                const store::Layout& layout,
                                                                const std::string& path);

} // namespace engram::engine
