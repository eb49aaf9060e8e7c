// Plan: what a consolidation will do — the new bytes of each file it changes,
// the files it removes, and the record of every action with its reason.
#pragma once

#include "engram/rule.hpp"
#include "store/diagnostic.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace engram::engine {

// Whether a plan is applied and committed, or only shown with nothing written.
enum class DryRun { yes, no };

// One file the plan changes.
struct FileChange {
  std::string path;                     // store-relative
  std::optional<std::string> base_hash; // content hash the plan was made from; nullopt: new file
  std::shared_ptr<const std::string> base_bytes; // the bytes it was made from (for diffs),
                                                 // shared with the model, never copied
  std::optional<std::string> new_bytes;          // nullopt: remove the file
};

// The outcome of running the rules over a snapshot.
struct Plan {
  RunKind kind = RunKind::full;
  bool subset = false; // the command chose its rules (--only, --skip): recorded as a subset run
  Date today{1970, 1, 1};
  std::string machine; // the machine the run is on, for the Engram-Machine trailer; "": none
  std::vector<std::string> rules;             // the rules that ran, in order
  std::vector<std::string> failed_rules;      // rules whose changes were discarded
  std::vector<FileChange> changes;            // writes first (path order), then removals
  std::vector<Action> record;                 // every action, in the order rules took them
  std::vector<store::Diagnostic> diagnostics; // files skipped or fields ignored
  std::vector<std::string> usage_logs;        // the usage logs folded ("<name> <hash>"), for
                                              // the Engram-Usage trailers
  std::vector<std::string> holding;           // the undos holding files (holds.hpp), for the
                                              // Engram-Holding trailers

  // True when applying the plan would change nothing.
  bool empty() const { return changes.empty(); }
};

} // namespace engram::engine
