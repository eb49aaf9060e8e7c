// The control protocol, apart from any socket: a client's bytes cut into
// request lines, a line read as a request, a reply written as a line. Pure
// functions, so the daemon's end and the fuzz target run the same code.
#pragma once

#include "base/expected.hpp"

#include <cstddef>
#include <engram/date.hpp>
#include <engram/rule.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace engram::daemon {

// The longest request line accepted; anything longer is not a client of ours.
inline constexpr std::size_t k_max_request_line = 64 * 1024;

// A client's byte stream cut into lines, each at most a cap long.
class RequestFramer {
public:
  // Frames lines of at most `max_line` bytes (the newline not counted).
  explicit RequestFramer(std::size_t max_line = k_max_request_line) : m_max_line(max_line) {}

  // Appends bytes received; false once a line has grown past the cap, after
  // which the client is to be refused and dropped.
  [[nodiscard]] bool feed(std::string_view bytes);

  // The next complete line, without its newline, or nullopt.
  [[nodiscard]] std::optional<std::string> next_line();

  // How many bytes are kept: complete lines not yet taken and the unfinished one.
  [[nodiscard]] std::size_t buffered() const { return m_buffer.size() - m_taken; }

private:
  std::size_t m_max_line;  // the longest line accepted
  std::string m_buffer;    // bytes received and not yet discarded
  std::size_t m_taken = 0; // bytes of m_buffer already handed out as lines
  std::size_t m_open = 0;  // where the unfinished line starts in m_buffer
};

// What a client asks of the daemon.
enum class RequestKind { status, consolidate, pause, resume, reload };

// One request, checked.
struct Request {
  RequestKind kind = RequestKind::status; // what is asked
  RunKind run = RunKind::full;            // consolidate: which run
  std::optional<Date> today;              // consolidate: the day to run as (`now`)
  bool wait = true; // consolidate: reply when the run is done (false: once it is queued)
  // consolidate, waiting: the run's progress as lines before the reply.
  bool progress = false;
};

// How far a run has got, as engine::Progress tells it.
struct ProgressReport {
  std::string step;  // "rule dedupe"
  std::size_t done = 0;
  std::size_t total = 0;
  std::string units; // "rules", "episodic files"
};

// The line a daemon sends, before its reply, to a client that asked for a
// run's progress: {"progress":{"step":…,"done":…,"total":…,"units":…}}.
[[nodiscard]] nlohmann::json progress_message(const ProgressReport& report);

// The report in a line from the daemon, or nullopt when the line is a reply.
[[nodiscard]] std::optional<ProgressReport> progress_of(const nlohmann::json& line);

// A request line as a JSON object, or nullopt when it is not one.
[[nodiscard]] std::optional<nlohmann::json> parse_request_line(std::string_view line);

// A request object checked: the request, or why it is refused (for failure()).
[[nodiscard]] Expected<Request, std::string> parse_request(const nlohmann::json& object);

// The reply that refuses a request: {"ok":false,"error":message}.
[[nodiscard]] nlohmann::json failure(std::string_view message);

// A reply as the bytes sent: compact JSON on one line (bytes that are not
// UTF-8 replaced, so any string can be sent), then a newline.
[[nodiscard]] std::string reply_line(const nlohmann::json& reply);

} // namespace engram::daemon
