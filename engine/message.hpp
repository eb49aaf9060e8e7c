// Message: a consolidation's record rendered as a commit message with its
// note, as text for --dry-run, and as JSON for --json. All come from the same
// record.
#pragma once

#include "base/json_text.hpp"
#include "engine/apply.hpp"
#include "engine/plan.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace engram::engine {

// Whether a commit finishes a change an earlier run was interrupted in.
enum class Recovered { yes, no };

// `consolidate(full): 12 claims absorbed, 3 episodic decayed, 1 merged`;
// `consolidate(recovered): …` for a consolidation a later run finished.
std::string summary_line(const Plan& plan, Recovered recovered = Recovered::no);

// What a commit says: its message, for people, and its note, the full
// record (git::k_notes_ref; empty: no note).
struct CommitText {
  std::string message;
  std::string note;
};

// The commit's text. The message: summary, one line per file with its counts
// (at most k_message_files of them, however large the run), deferred files
// (k_message_deferred),
// trailers (`Engram-Run`, `Engram-Rules`, `Engram-Date`, one `Engram-Usage`
// per usage log folded, and `Engram-Recovered: yes` when a later run
// finished it). The note: every action, one line each (render_record), and
// every deferred file.
CommitText commit_message(const Plan& plan, const ApplyResult& applied,
                          Recovered recovered = Recovered::no);

// The most files a commit message gives a line of their own, and the most
// deferred files it names; the rest are counted in one line, and the note
// names them all. A message stays about 60 lines, whatever the run.
constexpr std::size_t k_message_files = 40;
constexpr std::size_t k_message_deferred = 10;

// The plan (without file contents) that record_json(plan, …) describes: run
// kind, date, rules and every action, so a recovery can render the message
// of a consolidation it did not plan. Throws nlohmann's errors on bad JSON.
Plan plan_from_record(const nlohmann::json& record);

// `message` marked as finished by a later run: `Engram-Recovered: yes` added
// to its trailers (for messages not rendered from a plan: rollback, restore).
std::string mark_recovered(std::string_view message);

// One line per action, for people (`engram consolidate --dry-run`).
std::string render_record(const Plan& plan);

// The record counted, for people: one line per rule with its actions
// counted, then one line per file as a commit message has them (at most
// k_message_files). What `engram consolidate` prints unless --verbose.
std::string render_summary(const Plan& plan);

// The record's members as JSON: run, date, summary, rules, failed_rules,
// usage_logs, actions, changes, diagnostics and, with `applied`, written,
// removed and deferred. Written as they go, never built as a value: a full
// consolidation records thousands of actions (`engram consolidate --json`
// adds its own members to these). The members refer to `plan` and `applied`.
std::vector<JsonMember> record_members(const Plan& plan, const ApplyResult* applied);

// About how many bytes the record's JSON text takes at `indent` (json_text's),
// a little more rather than less: what to reserve for writing it, so that
// megabytes are not copied each time the text doubles.
std::size_t record_size_hint(const Plan& plan, int indent);

// The record as compact JSON text: an object of record_members.
std::string record_text(const Plan& plan, const ApplyResult* applied);

// The record as a JSON value (the daemon's replies), parsed from record_text.
nlohmann::json record_json(const Plan& plan, const ApplyResult* applied);

// The unified diff of every change in the plan.
std::string unified_diff(const Plan& plan);

// The unified diff of `changes`, each from the bytes it was planned from.
std::string unified_diff(const std::vector<FileChange>& changes);

} // namespace engram::engine
