// Payload: nlohmann parses; a parse error's byte offset becomes a line.
#include "hook/payload.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace engram::hook {

namespace {

// The 1-based line of byte `offset` in `text`.
int line_at(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

} // namespace

Payload parse_payload(std::string_view text, std::string_view origin,
                      std::vector<store::Diagnostic>& diagnostics) {
  Payload payload;
  const std::string where(origin);
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    diagnostics.push_back({where, 1, "no hook payload (expected a JSON object)"});
    return payload;
  }
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    diagnostics.push_back({where, line_at(text, error.byte == 0 ? 0 : error.byte - 1),
                           "not JSON: " + std::string(error.what())});
    return payload;
  }
  if (!json.is_object()) {
    diagnostics.push_back({where, 1, "the hook payload is not a JSON object"});
    return payload;
  }
  auto field = [&](const char* key) -> std::optional<std::string> {
    const auto it = json.find(key);
    if (it == json.end() || it->is_null()) {
      return std::nullopt;
    }
    if (!it->is_string()) {
      diagnostics.push_back({where, 1, std::string("\"") + key + "\" is not a string; ignored"});
      return std::nullopt;
    }
    return it->get<std::string>();
  };
  payload.session_id = field("session_id").value_or("");
  payload.cwd = field("cwd").value_or("");
  payload.event = field("hook_event_name").value_or("");
  payload.prompt = field("prompt");
  return payload;
}

} // namespace engram::hook
