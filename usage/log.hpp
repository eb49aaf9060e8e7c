// The usage log: what agents read from a store and whether it helped, one
// JSON object a line in `<store>/.engram/usage.jsonl`. `engram recall` and
// `engram feedback` append to it (never rewriting a memory file on a read); a
// consolidation takes the log (renames it to a name of its own, so new lines
// start a fresh log), folds it into the memories' frontmatter, names it in its
// commit's `Engram-Usage` trailer, and releases it after that commit.
//
// Appenders and the taker agree through flock on the log itself: an appender
// holds a shared lock while it writes and checks that the file it opened is
// still the live log; the taker renames first, then takes the exclusive lock,
// so every line written before the rename is in the taken file when it reads
// it, and every line after lands in the new live log.
#pragma once

#include "engram/date.hpp"
#include "store/diagnostic.hpp"
#include "store/layout.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::usage {

// What one line of the log says happened.
enum class EventKind { recall, feedback };

// One line of the usage log.
struct Event {
  EventKind kind = EventKind::recall;
  Date date{1970, 1, 1};          // the day it happened (the injectable clock's)
  std::vector<std::string> files; // store-relative, '/'-separated
  bool helpful = false;           // feedback only: --helpful (true) or --unhelpful
  std::string query;              // recall only, as asked (cut to k_query_chars)
  std::string session;            // the agent's session id, when a hook knows it

  // Equal when every field is.
  bool operator==(const Event&) const = default;
};

// The longest query a log line keeps, in bytes (cut at a UTF-8 boundary).
inline constexpr std::size_t k_query_bytes = 500;

// The most a log line may be; longer ones are diagnosed and skipped.
inline constexpr std::size_t k_line_bytes = 64 * 1024;

// The event as one line of JSON, ending in "\n".
std::string to_line(const Event& event);

// Parses one line (without its "\n"); the reason it cannot be used otherwise.
[[nodiscard]] std::optional<Event> parse_line(std::string_view line, std::string& reason);

// The live log of the store at `root`.
std::filesystem::path live_path(const std::filesystem::path& root, const store::Layout& layout);

// Appends `event` to the live log in one write (O_APPEND), creating the state
// folder and the log when missing. Throws engram::Error when it cannot.
void append(const std::filesystem::path& root, const store::Layout& layout, const Event& event);

// A log a consolidation took: renamed away from the live name.
struct TakenLog {
  std::string name;            // the file name, unique to the run that took it
  std::filesystem::path path;  // where it is
  std::string hash;            // of its bytes (FNV-1a 64, hex)
  std::vector<Event> events;   // its usable lines, in order
  std::vector<store::Diagnostic> diagnostics; // its unusable lines, `path:line: reason`

  // The `Engram-Usage` trailer value that names it: "<name> <hash>".
  std::string trailer() const { return name + " " + hash; }
};

// True for the name of a taken log (`usage-<stamp>-<pid>-<n>.jsonl`).
bool is_taken_name(std::string_view name);

// Reads the log at `path` (at most `limit` bytes; beyond is diagnosed and
// left to the next read) into a TakenLog named by its file name.
TakenLog read_log(const std::filesystem::path& path, std::uintmax_t limit);

// Renames the live log to a taken name and waits until no append to it is in
// flight; nullopt when there is no live log. Throws engram::Error.
std::optional<std::filesystem::path> take(const std::filesystem::path& root,
                                          const store::Layout& layout);

// Every taken log in the state folder (left by earlier runs, or just taken),
// sorted by name, so the oldest are folded first.
std::vector<std::filesystem::path> taken_paths(const std::filesystem::path& root,
                                               const store::Layout& layout);

// Removes a taken log once its fold is committed, and syncs the folder.
void release(const std::filesystem::path& path);

} // namespace engram::usage
