// History output: what the history commands (log, show, rollback, restore)
// and consolidate print about commits and recoveries, in text and JSON.
#pragma once

#include "engine/recovery.hpp"
#include "engine/undo.hpp"
#include "git/history.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace engram::cli {

// A commit id as people read it: its first 12 hex digits.
std::string short_id(const std::string& id);

// A commit time in its committer's zone: `2026-11-22 14:03:05 +0100`.
std::string commit_time(std::int64_t time, int offset_minutes);

// Prints, on stdout, what recovery finished before the command ran (nothing when it found nothing).
void print_recovery(const engine::Recovery& recovery);

// What recovery found and did, as JSON.
nlohmann::json recovery_json(const engine::Recovery& recovery);

// One log entry as JSON.
nlohmann::json log_entry_json(const git::LogEntry& entry);

// A rollback's or restore's outcome as JSON; a dry run's adds the diff it would apply.
nlohmann::json undone_json(const engine::Undone& undone, engine::DryRun dry = engine::DryRun::no);

// Prints, for people, the diff a rollback's or restore's dry run would
// apply and a line saying what it would do (`doing`: "roll back", "restore").
void print_undo_dry_run(const engine::Undone& undone, std::string_view doing);

} // namespace engram::cli
