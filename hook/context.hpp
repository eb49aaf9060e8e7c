// Context: the text a hook injects into an agent's session, within a
// character budget. At session start: core memory (CORE.md), then working
// memory (WORKING.md), then the memories recalled for the prompt (or, with
// no prompt, for what working memory says), in what is left of the budget; a
// file that does not fit whole is cut, with a note saying where the rest is.
// Per prompt: only the recalled memories. Also the JSON Claude Code expects.
#pragma once

#include "engram/date.hpp"
#include "recall/select.hpp"
#include "store/layout.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace engram::hook {

// What a context is made from.
struct ContextRequest {
  std::string query;            // the prompt; empty: working memory is the query
  Date today{1970, 1, 1};       // the injectable clock's day
  std::string session;          // the agent's session id, for the usage log
  std::size_t budget_chars = 8000;
  recall::Limits recall_limits; // its budget_chars is what is left, at most
};

// A composed context.
struct Context {
  std::string text;                  // what to inject; empty when the store holds nothing
  std::vector<std::string> recalled; // the memories recall returned
  std::vector<std::string> problems; // files that could not be read (`path: reason`)
};

// `text` cut to at most `limit` characters (code points), at a line end when
// one is near, followed by `note` when it was cut (the note counts too).
std::string cut_to_chars(std::string_view text, std::size_t limit, std::string_view note);

// The session-start context for the store at `root`. Throws engram::Error
// only when the usage log cannot be written.
Context session_start(const std::filesystem::path& root, const store::Layout& layout,
                      const ContextRequest& request);

// The context for one prompt: recalled memories only.
Context prompt_submit(const std::filesystem::path& root, const store::Layout& layout,
                      const ContextRequest& request);

// `{"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": TEXT}}`, one line.
std::string hook_output(std::string_view event, const std::string& context);

} // namespace engram::hook
