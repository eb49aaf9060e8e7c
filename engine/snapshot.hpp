// Snapshot: the agent's own edits, committed on their own before engram
// changes anything, so a consolidation's diff holds only engram's work and
// `git blame` tells the agent's lines from engram's. Authored by the agent
// (`git.agent_name`, `git.agent_email`), committed by engram.
#pragma once

#include "config/config.hpp"
#include "engine/held_back.hpp"
#include "engine/progress.hpp"
#include "engine/session.hpp"
#include "git/repository.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace engram::engine {

// What a snapshot committed.
struct Snapshot {
  std::string commit;             // its id
  std::vector<git::Change> files; // exactly the files it holds, by path
};

// Why a snapshot is taken, which its summary line says.
enum class SnapshotReason {
  agent,   // `snapshot: N files changed by the agent`
  adopted, // `snapshot: N files found when engram adopted the folder`
};

// The snapshot commit message: the summary, one `- <kind> <path>` line per
// file, and the `Engram-Run: snapshot` trailer.
std::string snapshot_message(const std::vector<git::Change>& files,
                             SnapshotReason reason = SnapshotReason::agent);

// The files the agent changed since the last commit: every change git sees,
// but never engram's state folder or a temporary file of an atomic write.
// With `only` (what a watcher saw change since the last run), only those
// paths are looked at: see git::Repository::changes.
std::vector<git::Change> agent_changes(const git::Repository& repository,
                                       const store::Layout& layout,
                                       const std::vector<std::string>* only = nullptr);

// Commits exactly agent_changes(), authored by the agent; nullopt when there
// are none. A file that looks like it holds a credential is held back
// (held_back.hpp): warned about, or added to `*held` when given. Finish an
// interrupted change first (finish_interrupted), or its half-written files
// would pass for the agent's. `only` as for agent_changes; `left`, when
// given, receives the changed files it did not commit (held back, or
// unreadable mid-write); `progress`, when given, hears of each file staged.
// Throws engram::Error.
std::optional<Snapshot> snapshot(Session& session, SnapshotReason reason = SnapshotReason::agent,
                                 std::vector<HeldBack>* held = nullptr,
                                 const std::vector<std::string>* only = nullptr,
                                 std::vector<std::string>* left = nullptr,
                                 Progress* progress = nullptr);

// For the daemon: one session on `root` that finishes an interrupted change
// and then snapshots the agent's changes. Throws engram::Error.
std::optional<Snapshot> snapshot(const std::filesystem::path& root,
                                 const config::Settings& settings);

// True when the daemon may snapshot now: it never has, or the last snapshot
// is at least `git.snapshot_interval_s` old (snapshots are coalesced).
bool snapshot_due(std::optional<std::chrono::steady_clock::time_point> last,
                  std::chrono::steady_clock::time_point now, const config::Settings& settings);

} // namespace engram::engine
