// Recovery: what an interrupted run left behind, found and finished at the
// start of the next one (a command or the daemon). Temporary files of atomic
// writes are removed; a change whose working state (.engram/pending.json)
// survives is finished from it and committed (`consolidate(recovered): …`);
// then the agent's own edits are snapshot-committed. Because an apply writes
// every new file before it removes any, and the state names each file's old
// and new content, no crash point loses a claim.
#pragma once

#include "config/config.hpp"
#include "engine/apply.hpp"
#include "engine/session.hpp"
#include "engine/snapshot.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace engram::engine {

// What recovery found and did.
struct Recovery {
  std::vector<std::string> removed_temporaries; // store-relative paths
  std::optional<std::string> operation;         // the interrupted change's ("consolidate", …)
  ApplyResult finished;                         // what it wrote, removed, or left to the agent
  std::optional<std::string> commit;            // the commit that finished it, when one was needed
  std::optional<Snapshot> snapshot;             // the agent's changes (recover() only)

  // True when recovery found nothing to do.
  bool empty() const { return removed_temporaries.empty() && !operation && !snapshot; }
};

// Removes the temporary files that atomic writes left when their run died,
// anywhere in the store but .git (one a process still has open is in use,
// and kept); returns their store-relative paths.
std::vector<std::string> remove_temporaries(const std::filesystem::path& root);

// Whether finish_interrupted looks through the whole store for temporaries.
enum class Sweep {
  yes,
  // Not this time: a daemon's lightweight run told what changed. A stray
  // temporary is never a memory, never committed and never an event, so it
  // waits harmlessly for the next run that sweeps (every full one).
  no,
};

// Removes stray temporaries (unless `sweep` says no) and, when a pending change exists, finishes
// it: a file already at its new content counts as written; one still at its old content is written
// now; one changed by someone else keeps their bytes and is deferred; removals happen only once
// every write is in place. Commits exactly those files, unless HEAD already holds them (the run
// died after its commit), then clears the working state. Last, releases the usage logs a recent
// commit folded (usage_run.hpp). Throws engram::Error.
Recovery finish_interrupted(Session& session, Sweep sweep = Sweep::yes);

// For the daemon at start, and after any failure: one session on `root`
// that runs finish_interrupted() and then snapshots the agent's changes.
Recovery recover(const std::filesystem::path& root, const config::Settings& settings);

} // namespace engram::engine
