// Apply: writing a plan to disk safely. Each file is checked against the bytes
// the plan was made from and written through a temporary file; the
// temporaries are flushed together, then renamed; removals come last and only
// when every write landed. Every step
// has a named fault point (ENGRAM_TEST_CRASH_AT) so tests can kill a run there.
#pragma once

#include "engine/atomic_write.hpp"
#include "engine/plan.hpp"
#include "store/scan.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::engine {

class ReplacedFiles;

// What applying a plan did.
struct ApplyResult {
  std::vector<std::string> written;  // files created or replaced
  std::vector<std::string> removed;  // files removed
  std::vector<std::string> deferred; // files left as they were, for the next run, with why

  // Equal when the same files were written, removed and deferred, in the same order.
  bool operator==(const ApplyResult&) const = default;
};

// Applies `plan` under `root`, all or nothing: when a file's bytes changed
// since the plan was made (up to the moment before its rename), it keeps
// them and the whole plan is deferred, the renames made undone; a file whose
// removal finds it changed is kept, and so are the other removals.
ApplyResult apply(const Plan& plan, const std::filesystem::path& root);

// Applies `changes` (writes first, then removals) under `root`, as apply(Plan)
// does. Fault points: `before-rename-N` and `after-write-N` around the N-th
// rename (from 1; every temporary is written and flushed before the first),
// `before-remove`, and `after-remove-N`. With `replaced`, each file replaced
// or removed is kept under a second name until what a writer holding it open
// adds is carried over (see replaced_files.hpp; freeing its blocks then
// happens there, not in the rename), and a file the agent only appended to
// since the plan read it is written all the same: its new lines are carried over.
ApplyResult apply(const std::vector<FileChange>& changes, const std::filesystem::path& root,
                  ReplacedFiles* replaced = nullptr);

} // namespace engram::engine
