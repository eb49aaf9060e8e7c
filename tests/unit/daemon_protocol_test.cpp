// The control protocol without a socket: framing with a cap, requests read
// strictly, replies that always stay one line.
#include "daemon/protocol.hpp"

#include <catch2/catch.hpp>
#include <string>

using engram::daemon::failure;
using engram::daemon::parse_request;
using engram::daemon::parse_request_line;
using engram::daemon::reply_line;
using engram::daemon::RequestFramer;
using engram::daemon::RequestKind;

TEST_CASE("requests sent together, in any chunks, are framed one line each") {
  RequestFramer framer;
  REQUIRE(framer.feed("{\"request\":\"pause\"}\n{\"requ"));
  CHECK(framer.next_line() == "{\"request\":\"pause\"}");
  CHECK_FALSE(framer.next_line().has_value());
  REQUIRE(framer.feed("est\":\"resume\"}\n\n"));
  CHECK(framer.next_line() == "{\"request\":\"resume\"}");
  CHECK(framer.next_line() == "");
  CHECK_FALSE(framer.next_line().has_value());
  CHECK(framer.buffered() == 0);
}

TEST_CASE("a request line longer than the cap is refused, whether or not it has ended") {
  RequestFramer open(8);
  CHECK(open.feed("12345678"));
  CHECK_FALSE(open.feed("9"));
  RequestFramer ended(8);
  CHECK_FALSE(ended.feed("123456789\n"));
  RequestFramer many(8);
  for (int i = 0; i < 100; ++i) {
    // Short lines taken as they come never add up to a long one.
    REQUIRE(many.feed("1234567\n"));
    REQUIRE(many.next_line() == "1234567");
  }
}

TEST_CASE("each request kind is read, with consolidate's kind and day") {
  CHECK(parse_request({{"request", "status"}})->kind == RequestKind::status);
  CHECK(parse_request({{"request", "reload"}})->kind == RequestKind::reload);
  const auto run =
      parse_request({{"request", "consolidate"}, {"kind", "lightweight"}, {"now", "2026-11-22"}});
  REQUIRE(run.has_value());
  CHECK(run->kind == RequestKind::consolidate);
  CHECK(run->run == engram::RunKind::lightweight);
  CHECK(run->today == engram::Date(2026, 11, 22));
  CHECK(parse_request({{"request", "consolidate"}})->run == engram::RunKind::full);
  // A hook asks without waiting for the run; everyone else waits.
  CHECK(parse_request({{"request", "consolidate"}})->wait);
  CHECK_FALSE(parse_request({{"request", "consolidate"}, {"wait", false}})->wait);
  // Only a client that asks sees the run's progress (an older one reads one line).
  CHECK_FALSE(parse_request({{"request", "consolidate"}})->progress);
  CHECK(parse_request({{"request", "consolidate"}, {"progress", true}})->progress);
}

TEST_CASE("a progress line and a reply are told apart, and a report survives the trip") {
  const engram::daemon::ProgressReport sent{"rule episodic-decay", 40, 90, "episodic files"};
  const auto line = nlohmann::json::parse(reply_line(engram::daemon::progress_message(sent)));
  const auto read = engram::daemon::progress_of(line);
  REQUIRE(read.has_value());
  CHECK(read->step == sent.step);
  CHECK(read->done == 40);
  CHECK(read->total == 90);
  CHECK(read->units == sent.units);
  CHECK_FALSE(engram::daemon::progress_of({{"ok", true}, {"summary", "progress"}}).has_value());
  CHECK_FALSE(engram::daemon::progress_of(nlohmann::json::array()).has_value());
}

TEST_CASE("a request field of the wrong type is refused with a reason, not thrown") {
  const auto number = parse_request({{"request", 1}});
  REQUIRE_FALSE(number.has_value());
  CHECK(number.error() == "request must be a string, not number");
  const auto kind = parse_request({{"request", "consolidate"}, {"kind", nullptr}});
  REQUIRE_FALSE(kind.has_value());
  CHECK(kind.error() == "kind must be a string, not null");
  CHECK_FALSE(parse_request({{"request", "consolidate"}, {"now", 20261122}}).has_value());
  const auto wait = parse_request({{"request", "consolidate"}, {"wait", "no"}});
  REQUIRE_FALSE(wait.has_value());
  CHECK(wait.error() == "wait must be true or false");
  const auto progress = parse_request({{"request", "consolidate"}, {"progress", 1}});
  REQUIRE_FALSE(progress.has_value());
  CHECK(progress.error() == "progress must be true or false");
  CHECK_FALSE(parse_request({{"request", "nap"}}).has_value());
  CHECK_FALSE(parse_request_line("[1,2]").has_value());
  CHECK_FALSE(parse_request_line("{\"request\":").has_value());
}

TEST_CASE("a reply is one line whatever bytes its strings hold") {
  const auto line = reply_line(failure("bad \xff\n name"));
  CHECK(line.back() == '\n');
  CHECK(line.find('\n') == line.size() - 1);
  CHECK(nlohmann::json::parse(line)["ok"] == false);
}
