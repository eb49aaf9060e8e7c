// Recall: one query answered from a store — the recall index loaded (rebuilt
// when stale), the query's keywords ranked against it, the best memories read
// within the limits, and one `recall` line appended to the usage log naming
// what was returned. Memory files are only read, never written.
#pragma once

#include "engram/date.hpp"
#include "recall/select.hpp"
#include "store/layout.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace engram::recall {

// Whether a recall is noted in the usage log.
enum class NoteUse { yes, no };

// What to recall.
struct Request {
  std::string query;
  Date today{1970, 1, 1}; // the injectable clock's day: recency, and the log line's date
  Limits limits;
  std::string session;    // the agent's session id, when known (hooks)
  NoteUse note = NoteUse::yes;
};

// What a recall found.
struct Result {
  std::vector<std::string> keywords; // the query's, canonical
  bool indexed = false;              // false: the store has no .index.json yet
  Selection selection;
  std::string unnoted; // why the usage log could not take this recall; empty when it did
};

// Answers `request` from the store at `root`. Throws engram::Error when
// `.index.json` cannot be read; a usage log that cannot be written is said in
// `unnoted`, and what was found is still returned.
Result recall(const std::filesystem::path& root, const store::Layout& layout,
              const Request& request);

} // namespace engram::recall
