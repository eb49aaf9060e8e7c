#include "lib/temp_dir.hpp"
#include "usage/log.hpp"

#include <catch2/catch.hpp>

using namespace engram;
namespace fs = std::filesystem;

namespace {

// A recall event of `files` on 2026-11-22.
usage::Event recall_event(std::vector<std::string> files) {
  usage::Event event;
  event.kind = usage::EventKind::recall;
  event.date = Date(2026, 11, 22);
  event.files = std::move(files);
  event.query = "sqlite locked";
  event.session = "s-1";
  return event;
}

} // namespace

TEST_CASE("a usage event survives its trip through one log line") {
  const auto recall = recall_event({"semantic/a.md", "episodic/2026-11-01-b.md"});
  const auto line = usage::to_line(recall);
  REQUIRE(line.ends_with("\n"));
  CHECK(std::count(line.begin(), line.end(), '\n') == 1);
  std::string reason;
  const auto back = usage::parse_line(line.substr(0, line.size() - 1), reason);
  REQUIRE(back);
  CHECK(*back == recall);

  usage::Event feedback;
  feedback.kind = usage::EventKind::feedback;
  feedback.date = Date(2026, 1, 2);
  feedback.files = {"reference/c.md"};
  feedback.helpful = true;
  const auto again = usage::parse_line(usage::to_line(feedback), reason);
  REQUIRE(again);
  CHECK(*again == feedback);
}

TEST_CASE("a log line that cannot be used says why") {
  std::string reason;
  CHECK(!usage::parse_line("not json", reason));
  CHECK(reason == "not a JSON object");
  CHECK(!usage::parse_line(R"({"event":"read","date":"2026-11-22","files":[]})", reason));
  CHECK(reason.find("\"event\"") != std::string::npos);
  CHECK(!usage::parse_line(R"({"event":"recall","date":"22/11/2026","files":[]})", reason));
  CHECK(reason.find("\"date\"") != std::string::npos);
  CHECK(!usage::parse_line(R"({"event":"recall","date":"2026-11-22","files":["../etc/passwd"]})",
                           reason));
  CHECK(reason.find("store-relative") != std::string::npos);
  CHECK(!usage::parse_line(R"({"event":"recall","date":"2026-11-22","files":["/abs.md"]})", reason));
  CHECK(!usage::parse_line(R"({"event":"feedback","date":"2026-11-22","files":["a.md"]})", reason));
  CHECK(reason.find("helpful") != std::string::npos);
}

TEST_CASE("reading a log diagnoses each bad line by number and keeps the good ones") {
  test::TempDir dir;
  const auto path = dir / "usage-1-2-3.jsonl";
  test::write_file(path, usage::to_line(recall_event({"semantic/a.md"})) + "garbage\n\n" +
                             usage::to_line(recall_event({"semantic/b.md"})) +
                             R"({"event":"recall")");
  const auto log = usage::read_log(path, 1 << 20);
  REQUIRE(log.events.size() == 2);
  CHECK(log.events[1].files == std::vector<std::string>{"semantic/b.md"});
  REQUIRE(log.diagnostics.size() == 2);
  CHECK(log.diagnostics[0].to_string() == path.string() + ":2: not a JSON object");
  CHECK(log.diagnostics[1].line == 5);
  CHECK(log.diagnostics[1].reason.find("incomplete") != std::string::npos);
  CHECK(log.trailer() == "usage-1-2-3.jsonl " + log.hash);
  CHECK(log.hash.size() == 16);
}

TEST_CASE("taking the log leaves new appends to a fresh live log") {
  test::TempDir dir;
  const store::Layout layout;
  usage::append(dir.path(), layout, recall_event({"semantic/a.md"}));
  usage::append(dir.path(), layout, recall_event({"semantic/b.md"}));
  const auto taken = usage::take(dir.path(), layout);
  REQUIRE(taken);
  CHECK(usage::is_taken_name(taken->filename().string()));
  CHECK(!fs::exists(usage::live_path(dir.path(), layout)));
  usage::append(dir.path(), layout, recall_event({"semantic/c.md"}));

  CHECK(usage::read_log(*taken, 1 << 20).events.size() == 2);
  const auto live = usage::read_log(usage::live_path(dir.path(), layout), 1 << 20);
  REQUIRE(live.events.size() == 1);
  CHECK(live.events[0].files == std::vector<std::string>{"semantic/c.md"});
  CHECK(usage::taken_paths(dir.path(), layout) == std::vector<fs::path>{*taken});

  usage::release(*taken);
  CHECK(usage::taken_paths(dir.path(), layout).empty());
  CHECK(!usage::take(dir.path() / "nothing", layout));
}
