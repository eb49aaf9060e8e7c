// History output: the shared renderings, so every command says the same thing
// the same way.
#include "cli/history_output.hpp"

#include "engine/message.hpp"

#include <algorithm>
#include <ctime>
#include <fmt/format.h>

namespace engram::cli {

namespace {

// A signature as JSON.
nlohmann::json signature_json(const git::Signature& signature) {
  return {{"name", signature.name}, {"email", signature.email}};
}

// A string, or JSON null when it is absent.
nlohmann::json optional_json(const std::optional<std::string>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

} // namespace

std::string short_id(const std::string& id) {
  return id.substr(0, 12);
}

std::string commit_time(std::int64_t time, int offset_minutes) {
  const std::time_t shifted = static_cast<std::time_t>(time + std::int64_t{offset_minutes} * 60);
  std::tm parts{};
  gmtime_r(&shifted, &parts);
  const int offset = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} {}{:02}{:02}", parts.tm_year + 1900,
                     parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec,
                     offset_minutes < 0 ? '-' : '+', offset / 60, offset % 60);
}

void print_recovery(const engine::Recovery& recovery) {
  if (!recovery.removed_temporaries.empty()) {
    fmt::print("removed {} temporary file{} an interrupted run left\n",
               recovery.removed_temporaries.size(),
               recovery.removed_temporaries.size() == 1 ? "" : "s");
  }
  if (recovery.operation) {
    if (recovery.commit) {
      fmt::print("finished an interrupted {} and committed it as {}\n", *recovery.operation,
                 short_id(*recovery.commit));
    } else {
      fmt::print("finished an interrupted {}; its commit was already made\n", *recovery.operation);
    }
    for (const auto& path : recovery.finished.deferred) {
      fmt::print("  left as the agent changed it: {}\n", path);
    }
  }
  if (recovery.snapshot) {
    fmt::print("committed the agent's changes first as {}\n", short_id(recovery.snapshot->commit));
  }
}

nlohmann::json recovery_json(const engine::Recovery& recovery) {
  nlohmann::json out;
  out["removed_temporaries"] = recovery.removed_temporaries;
  out["operation"] = optional_json(recovery.operation);
  out["commit"] = optional_json(recovery.commit);
  out["written"] = recovery.finished.written;
  out["removed"] = recovery.finished.removed;
  out["deferred"] = recovery.finished.deferred;
  return out;
}

nlohmann::json log_entry_json(const git::LogEntry& entry) {
  return {{"commit", entry.id},
          {"date", commit_time(entry.time, entry.offset_minutes)},
          {"time", entry.time},
          {"author", signature_json(entry.author)},
          {"committer", signature_json(entry.committer)},
          {"summary", entry.summary},
          {"run", entry.run.empty() ? nlohmann::json(nullptr) : nlohmann::json(entry.run)},
          {"files_changed", entry.files_changed},
          {"insertions", entry.insertions},
          {"deletions", entry.deletions}};
}

nlohmann::json undone_json(const engine::Undone& undone, engine::DryRun dry) {
  nlohmann::json out;
  out["dry_run"] = dry == engine::DryRun::yes;
  out["diff"] = dry == engine::DryRun::yes ? nlohmann::json(engine::unified_diff(undone.changes))
                                           : nlohmann::json(nullptr);
  auto& changes = out["changes"] = nlohmann::json::array();
  for (const auto& change : undone.changes) {
    changes.push_back(
        {{"change", !change.new_bytes ? "remove" : (change.base_hash ? "modify" : "create")},
         {"path", change.path}});
  }
  out["target"] = undone.target;
  out["target_summary"] = undone.target_summary;
  out["commit"] = optional_json(undone.committed.commit);
  out["snapshot_commit"] =
      undone.snapshot ? nlohmann::json(undone.snapshot->commit) : nlohmann::json(nullptr);
  out["recovery"] = recovery_json(undone.recovery);
  out["written"] = undone.committed.applied.written;
  out["removed"] = undone.committed.applied.removed;
  out["deferred"] = undone.committed.applied.deferred;
  return out;
}

void print_undo_dry_run(const engine::Undone& undone, std::string_view doing) {
  if (undone.changes.empty()) {
    fmt::print("nothing to {}: the store already is as that would leave it ({}: {})\n", doing,
               short_id(undone.target), undone.target_summary);
  } else {
    const auto removed = static_cast<std::size_t>(
        std::count_if(undone.changes.begin(), undone.changes.end(),
                      [](const engine::FileChange& change) { return !change.new_bytes; }));
    fmt::print("{}would {} {} ({}): {} file{} to write, {} to remove\n",
               engine::unified_diff(undone.changes), doing, short_id(undone.target),
               undone.target_summary, undone.changes.size() - removed,
               undone.changes.size() - removed == 1 ? "" : "s", removed);
  }
  fmt::print("dry run: nothing was written\n");
}

} // namespace engram::cli
