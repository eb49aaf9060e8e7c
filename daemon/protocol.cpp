// The control protocol: line framing with a cap, requests read strictly (a
// field of the wrong type is refused with a reason, never thrown), replies
// written so that no string can break the one-line framing.
#include "daemon/protocol.hpp"

#include "base/json_text.hpp"

#include <fmt/format.h>

namespace engram::daemon {

namespace {

// The name a JSON value's type goes by in a refusal.
std::string_view type_name(const nlohmann::json& value) {
  return value.type_name();
}

// The string field `key` of `object`, `fallback` when it is absent, or why not.
Expected<std::string, std::string> string_field(const nlohmann::json& object, std::string_view key,
                                                std::string_view fallback) {
  const auto found = object.find(key);
  if (found == object.end()) {
    return std::string(fallback);
  }
  if (!found->is_string()) {
    return unexpected(fmt::format("{} must be a string, not {}", key, type_name(*found)));
  }
  return found->get<std::string>();
}

// The boolean field `key` of `object`, `fallback` when it is absent or null, or why not.
Expected<bool, std::string> bool_field(const nlohmann::json& object, std::string_view key,
                                       bool fallback) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) {
    return fallback;
  }
  if (!found->is_boolean()) {
    return unexpected(fmt::format("{} must be true or false", key));
  }
  return found->get<bool>();
}

} // namespace

nlohmann::json progress_message(const ProgressReport& report) {
  return {{"progress",
           {{"step", report.step},
            {"done", report.done},
            {"total", report.total},
            {"units", report.units}}}};
}

std::optional<ProgressReport> progress_of(const nlohmann::json& line) {
  if (!line.is_object()) {
    return std::nullopt;
  }
  const auto found = line.find("progress");
  if (found == line.end() || !found->is_object()) {
    return std::nullopt;
  }
  const auto& report = *found;
  const auto count = [&](const char* key) {
    const auto value = report.find(key);
    return value != report.end() && value->is_number_unsigned() ? value->get<std::size_t>() : 0;
  };
  const auto text = [&](const char* key) {
    const auto value = report.find(key);
    return value != report.end() && value->is_string() ? value->get<std::string>() : "";
  };
  return ProgressReport{text("step"), count("done"), count("total"), text("units")};
}

bool RequestFramer::feed(std::string_view bytes) {
  // Lines already handed out are discarded before the buffer grows, so a
  // client that sends many short requests never looks like one long one.
  m_buffer.erase(0, m_taken);
  m_open -= m_taken;
  m_taken = 0;
  std::size_t from = m_buffer.size();
  m_buffer.append(bytes);
  for (auto newline = m_buffer.find('\n', from); newline != std::string::npos;
       newline = m_buffer.find('\n', from)) {
    if (newline - m_open > m_max_line) {
      return false;
    }
    m_open = from = newline + 1;
  }
  return m_buffer.size() - m_open <= m_max_line;
}

std::optional<std::string> RequestFramer::next_line() {
  if (m_taken >= m_open) {
    return std::nullopt; // only the unfinished line is left
  }
  const auto newline = m_buffer.find('\n', m_taken);
  std::string line = m_buffer.substr(m_taken, newline - m_taken);
  m_taken = newline + 1;
  return line;
}

std::optional<nlohmann::json> parse_request_line(std::string_view line) {
  nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
  if (request.is_discarded() || !request.is_object()) {
    return std::nullopt;
  }
  return request;
}

Expected<Request, std::string> parse_request(const nlohmann::json& object) {
  if (!object.is_object()) {
    return unexpected(std::string("a request is one JSON object on one line"));
  }
  auto what = string_field(object, "request", "");
  if (!what) {
    return unexpected(std::move(what.error()));
  }
  Request request;
  if (*what == "status") {
    request.kind = RequestKind::status;
  } else if (*what == "pause") {
    request.kind = RequestKind::pause;
  } else if (*what == "resume") {
    request.kind = RequestKind::resume;
  } else if (*what == "reload") {
    request.kind = RequestKind::reload;
  } else if (*what == "consolidate") {
    request.kind = RequestKind::consolidate;
    auto kind = string_field(object, "kind", "full");
    if (!kind) {
      return unexpected(std::move(kind.error()));
    }
    if (*kind != "full" && *kind != "lightweight") {
      return unexpected("kind must be \"full\" or \"lightweight\", not \"" + *kind + "\"");
    }
    request.run = *kind == "full" ? RunKind::full : RunKind::lightweight;
    const auto now = object.find("now");
    if (now != object.end() && !now->is_null()) {
      request.today = now->is_string() ? Date::parse(now->get<std::string>()) : std::nullopt;
      if (!request.today) {
        return unexpected(std::string("now must be a date YYYY-MM-DD"));
      }
    }
    const auto wait = bool_field(object, "wait", true);
    const auto progress = bool_field(object, "progress", false);
    if (!wait || !progress) {
      return unexpected(!wait ? wait.error() : progress.error());
    }
    request.wait = *wait;
    request.progress = *progress;
  } else {
    return unexpected("unknown request \"" + *what +
                      "\"; one of status, consolidate, pause, resume, reload");
  }
  return request;
}

nlohmann::json failure(std::string_view message) {
  return {{"ok", false}, {"error", std::string(message)}};
}

std::string reply_line(const nlohmann::json& reply) {
  std::string line = json_text(reply);
  line += '\n';
  return line;
}

} // namespace engram::daemon
