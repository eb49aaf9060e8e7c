// libFuzzer target for the control protocol: the daemon's end of a client's
// bytes, without a socket. The bytes are framed (in chunks the input chooses,
// with a small line cap so that oversized requests are reached), each line
// read as a request or refused, and a reply built and written. Invariants:
// chunking does not change the lines; no line passes the cap; a request that
// parses has a known kind; every reply is one line of JSON that reads back.
#include "daemon/protocol.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace protocol = engram::daemon;

namespace {

// The line cap the fuzzer frames with: small, so inputs of a few KiB pass it.
constexpr std::size_t k_cap = 256;

// Stops the run with a reason: a broken invariant is a finding.
[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "control_protocol_fuzz: invariant broken: %s\n", what);
  std::abort();
}

// The lines `bytes` frames to, fed `chunk` bytes at a time; `refused` is set
// when the framer refused the stream (lines before that are kept).
std::vector<std::string> frame(std::string_view bytes, std::size_t chunk, bool& refused) {
  protocol::RequestFramer framer(k_cap);
  std::vector<std::string> lines;
  refused = false;
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    if (!framer.feed(bytes.substr(at, chunk))) {
      refused = true;
      return lines;
    }
    while (auto line = framer.next_line()) {
      if (line->size() > k_cap || line->find('\n') != std::string::npos) {
        fail("a framed line passes the cap or holds a newline");
      }
      lines.push_back(std::move(*line));
    }
    if (framer.buffered() > k_cap) {
      fail("the framer keeps more than one unfinished line");
    }
  }
  return lines;
}

// The reply the daemon would build for one line (the state-dependent parts
// of a real reply, such as a status, are stood in for by the request's echo).
nlohmann::json reply_to(const std::string& line) {
  const auto object = protocol::parse_request_line(line);
  if (!object) {
    return protocol::failure("a request is one JSON object on one line");
  }
  const auto request = protocol::parse_request(*object);
  if (!request) {
    if (request.error().empty()) {
      fail("a request refused without a reason");
    }
    return protocol::failure(request.error());
  }
  switch (request->kind) {
  case protocol::RequestKind::status:
  case protocol::RequestKind::pause:
  case protocol::RequestKind::resume:
  case protocol::RequestKind::reload:
    return {{"ok", true}, {"echo", *object}, {"line", line}};
  case protocol::RequestKind::consolidate:
    return {{"ok", true},
            {"kind", request->run == engram::RunKind::full ? "full" : "lightweight"},
            {"now", request->today ? request->today->to_string() : ""},
            {"line", line}};
  }
  fail("a request of no known kind");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  // The first byte chooses the chunk size; the rest is what the client sent.
  const std::size_t chunk = 1 + data[0] % 64;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  bool refused_whole = false;
  bool refused_chunked = false;
  const auto whole = frame(bytes, std::max<std::size_t>(bytes.size(), 1), refused_whole);
  const auto chunked = frame(bytes, chunk, refused_chunked);
  // Fed whole, an oversized line is seen at once; in chunks, the lines before it are taken.
  if (!refused_whole && (refused_chunked || whole != chunked)) {
    fail("feeding in chunks frames other lines than feeding at once");
  }
  if (refused_whole && !refused_chunked) {
    fail("an oversized line refused at once but not in chunks");
  }
  for (const auto& line : chunked) {
    const std::string sent = protocol::reply_line(reply_to(line));
    if (sent.empty() || sent.back() != '\n' || sent.find('\n') != sent.size() - 1) {
      fail("a reply that is not exactly one line");
    }
    const auto back = nlohmann::json::parse(sent, nullptr, false);
    if (back.is_discarded() || !back.is_object() || !back.contains("ok")) {
      fail("a reply that does not read back as a JSON object");
    }
  }
  return 0;
}
