// Payload: what an agent's hook sends on stdin. Claude Code sends one JSON
// object: `session_id`, `transcript_path`, `cwd`, `hook_event_name`, and per
// event `source` (SessionStart: startup, resume, clear, compact), `prompt`
// (UserPromptSubmit) or `reason` (SessionEnd). Every field is optional here:
// a hook must never fail the agent, so a payload that cannot be read is
// diagnosed and treated as an empty one.
#pragma once

#include "store/diagnostic.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::hook {

// The most bytes of stdin a hook reads; the rest is ignored (and diagnosed).
inline constexpr std::size_t k_payload_bytes = 1024 * 1024;

// The fields engram uses.
struct Payload {
  std::string session_id;
  std::string cwd;
  std::string event;                 // hook_event_name
  std::optional<std::string> prompt; // present for UserPromptSubmit
};

// Parses `text`, read from `origin` (`<stdin>`). Problems go to
// `diagnostics` as `origin:line: reason`; whatever could be read is returned.
Payload parse_payload(std::string_view text, std::string_view origin,
                      std::vector<store::Diagnostic>& diagnostics);

} // namespace engram::hook
