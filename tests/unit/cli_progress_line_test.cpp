// The progress line: redrawn at most once per interval of its (injected)
// clock, its estimate made from the pace so far, and cleared at the end.
#include "cli/progress_line.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

using engram::cli::ProgressLine;
using namespace std::chrono_literals;

namespace {

// Everything written to `file` so far.
std::string written(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string out;
  char buffer[512];
  std::size_t count = 0;
  while ((count = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    out.append(buffer, count);
  }
  return out;
}

// How many times `text` occurs in `in`.
std::size_t occurrences(const std::string& in, const std::string& text) {
  std::size_t n = 0;
  for (auto at = in.find(text); at != std::string::npos; at = in.find(text, at + 1)) {
    ++n;
  }
  return n;
}

} // namespace

TEST_CASE("the progress line is redrawn at most once per interval of its clock") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  auto now = std::chrono::steady_clock::time_point{};
  ProgressLine line(
      out, "consolidate", [&] { return now; }, 250ms);

  line.update("rule a", 0, 4, "rules"); // the first is always drawn
  now += 100ms;
  line.update("rule b", 1, 4, "rules"); // too soon: dropped
  now += 200ms;
  line.update("rule c", 2, 4, "rules"); // 300 ms after the first: drawn
  const auto text = written(out);
  CHECK(occurrences(text, "\r\x1b[K") == 2);
  CHECK_THAT(text, Catch::Contains("consolidate: rule a, 0 of 4 rules, 0.0 s elapsed"));
  CHECK_THAT(text, !Catch::Contains("rule b"));
  // Two of four done in 0.3 s: the other two at the same pace.
  CHECK_THAT(text, Catch::EndsWith("consolidate: rule c, 2 of 4 rules, 0.3 s elapsed, about "
                                   "0.3 s left"));

  line.finish();
  CHECK_THAT(written(out), Catch::EndsWith("left\r\x1b[K"));
  std::fclose(out);
}

TEST_CASE("a progress line that never drew clears nothing") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  ProgressLine line(out, "pack");
  line.finish();
  CHECK(written(out).empty());
  std::fclose(out);
}

TEST_CASE("the estimate is left out before anything is done and once everything is") {
  CHECK(ProgressLine::render("init", "files", 0, 10, "files", 2s) ==
        "init: files, 0 of 10 files, 2.0 s elapsed");
  CHECK(ProgressLine::render("init", "files", 10, 10, "files", 2s) ==
        "init: files, 10 of 10 files, 2.0 s elapsed");
  CHECK(ProgressLine::render("init", "files", 1, 5, "files", 1s) ==
        "init: files, 1 of 5 files, 1.0 s elapsed, about 4.0 s left");
}

TEST_CASE("the estimate goes at the pace of the count under way, not of the whole command") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  auto now = std::chrono::steady_clock::time_point{};
  ProgressLine line(
      out, "consolidate", [&] { return now; }, 250ms);
  line.update("rule working-memory", 0, 4, "rules");
  now += 2s; // the decay rule's first file comes 2 s into the command
  line.update("rule episodic-decay", 0, 100, "episodic files");
  now += 1s;
  line.update("rule episodic-decay", 50, 100, "episodic files");
  // Half of the files in 1 s: the other half in 1 s, whatever came before.
  CHECK_THAT(written(out), Catch::EndsWith("consolidate: rule episodic-decay, 50 of 100 episodic "
                                           "files, 3.0 s elapsed, about 1.0 s left"));
  now += 1s;
  line.update("rule dedupe", 2, 4, "rules");
  // The rules, a count since the start: two of four in 4 s.
  CHECK_THAT(written(out),
             Catch::EndsWith("consolidate: rule dedupe, 2 of 4 rules, 4.0 s elapsed, about "
                             "4.0 s left"));
  // A count of the same kind that starts again (git's phases) is a new one,
  // and one first seen in its middle has no pace yet.
  line.update("counting objects", 90, 90, "objects");
  now += 1s;
  line.update("writing objects", 10, 90, "objects");
  CHECK_THAT(written(out), Catch::EndsWith("writing objects, 10 of 90 objects, 5.0 s elapsed"));
  now += 1s;
  line.update("writing objects", 50, 90, "objects");
  CHECK_THAT(written(out), Catch::EndsWith("writing objects, 50 of 90 objects, 6.0 s elapsed, "
                                           "about 1.0 s left"));
  std::fclose(out);
}
