// Usage run: the usage log's part in a consolidation. A run that writes takes
// the live log (renamed to a name of its own, so agents' new lines start a
// fresh one), folds every taken log, names each in an `Engram-Usage: <name>
// <hash>` trailer of its commit, and releases them only after that commit.
// A run killed anywhere folds nothing twice and loses nothing: a taken log a
// recent commit names was folded (it is released at the next run's start,
// after recovery has committed an interrupted change); one no commit names
// was not, and is folded by the next run.
#pragma once

#include "engine/apply.hpp"
#include "engine/session.hpp"
#include "store/layout.hpp"
#include "usage/log.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace engram::engine {

// How many commits back a taken log's trailer is looked for: every run that
// writes releases what it can first, so a folded log's commit is recent.
inline constexpr std::size_t k_usage_history = 200;

// The most bytes of one usage log a run reads.
inline constexpr std::uintmax_t k_usage_log_bytes = 64 * 1024 * 1024;

// Removes every taken usage log that a recent commit's trailer names; returns
// their names. Throws engram::Error when the history cannot be read.
std::vector<std::string> release_committed_usage(Session& session);

// For a run that writes: takes the live log and reads every taken log, oldest first.
std::vector<usage::TakenLog> take_usage(const std::filesystem::path& root,
                                        const store::Layout& layout);

// For a dry run: reads the taken logs and the live one, changing nothing.
std::vector<usage::TakenLog> peek_usage(const std::filesystem::path& root,
                                        const store::Layout& layout);

// Every event of `logs`, in order.
std::vector<usage::Event> events_of(const std::vector<usage::TakenLog>& logs);

// After the commit that names `logs`: the events for files whose write was
// deferred (an agent changed them meanwhile) go back to the live log, for the
// next run; then every log is released.
void finish_usage(const std::filesystem::path& root, const store::Layout& layout,
                  const std::vector<usage::TakenLog>& logs, const ApplyResult& applied);

} // namespace engram::engine
