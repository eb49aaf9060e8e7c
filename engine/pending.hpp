// Pending: the working state of a change on its way to a commit, kept in
// `<store>/.engram/pending.json`. It is written (and fsynced) before the first
// file is touched and removed after the commit, so whatever point a run dies
// at, the next one knows what was meant and finishes it: the files to write
// (by git blob id, already in the object database), the files to remove, and
// the record the commit message is rendered from.
#pragma once

#include "store/layout.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::engine {

// One file of a pending change.
struct PendingFile {
  std::string path;                  // store-relative
  std::optional<std::string> base;   // blob id it had when planned; nullopt: it did not exist
  std::optional<std::string> target; // blob id it gets; nullopt: it is removed

  // Equal when path and both ids are.
  bool operator==(const PendingFile&) const = default;
};

// A change that was started and not yet committed.
struct Pending {
  std::string operation; // "consolidate", "rollback" or "restore"
  std::optional<std::string>
      head;            // HEAD when it started (for the record; recovery does not need it)
  std::string message; // the commit message had everything been applied
  std::string record;  // a consolidation's record as record_text writes it; empty for the others
  std::vector<PendingFile> files; // writes in the order applied, then removals
  // A sync's merge: the remote's commit, the commit's second parent; nullopt for the others.
  std::optional<std::string> merged;

  // Equal when every field is.
  bool operator==(const Pending&) const = default;
};

// Where a store keeps its pending change.
std::filesystem::path pending_path(const std::filesystem::path& root, const store::Layout& layout);

// Writes `pending` atomically (temporary file, fsync, rename, fsync of the
// folder), creating the state folder if needed. Throws engram::Error on failure.
void write_pending(const std::filesystem::path& root, const store::Layout& layout,
                   const Pending& pending);

// The pending change, or nullopt when there is none. Throws engram::Error when
// the file is there but unreadable: it is never guessed at or dropped.
std::optional<Pending> read_pending(const std::filesystem::path& root, const store::Layout& layout);

// Removes the pending change (and fsyncs the folder); the change is committed.
void clear_pending(const std::filesystem::path& root, const store::Layout& layout);

// The pending change as compact JSON text (the record spliced in as it is),
// and back; from_json throws nlohmann's errors.
std::string pending_text(const Pending& pending);
// pending_text in three parts, the record's text (megabytes, for a full
// consolidation) not copied: `before`, the record, `after`.
struct PendingText {
  std::string before;
  std::string_view record; // the Pending's own, or empty
  std::string after;
};
PendingText pending_parts(const Pending& pending);
// Reads what pending_text wrote.
Pending pending_from_json(const nlohmann::json& json);

} // namespace engram::engine
