// git's own progress (git/git_progress.cpp): its lines read into reports,
// its other output kept for the error message, and a real repack's progress
// read from the pseudo-terminal git writes it to.
#include "git/git_progress.hpp"
#include "git/packing.hpp"
#include "git/repository.hpp"
#include "lib/temp_dir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <string>
#include <vector>

using engram::git::ErrorSorter;
using engram::git::parse_progress;
using engram::git::ProgressReport;
using engram::test::TempDir;
using engram::test::write_file;

TEST_CASE("git's progress lines are read as step, done and total, and nothing else is") {
  const auto counting = parse_progress("Counting objects:  45% (41/90)");
  REQUIRE(counting);
  CHECK(counting->step == "counting objects");
  CHECK(counting->done == 41);
  CHECK(counting->total == 90);

  const auto writing =
      parse_progress("Writing objects: 100% (1203/1203), 1.20 MiB | 3.05 MiB/s, done.");
  REQUIRE(writing);
  CHECK(writing->step == "writing objects");
  CHECK(writing->done == 1203);
  CHECK(writing->total == 1203);

  CHECK_FALSE(parse_progress("Enumerating objects: 90, done."));
  CHECK_FALSE(parse_progress("fatal: cannot write pack (1/2)"));
  CHECK_FALSE(parse_progress("error: 50% (of nothing)"));
  CHECK_FALSE(parse_progress("Counting objects:  45% (41/"));
  CHECK_FALSE(parse_progress(""));
}

TEST_CASE("git's standard error is sorted into progress and what a failure needs, across reads") {
  std::vector<ProgressReport> reports;
  std::string said;
  ErrorSorter sorter(
      [&](std::string_view step, std::size_t done, std::size_t total) {
        reports.push_back({std::string(step), done, total});
      },
      said, 64);
  sorter.feed("Enumerating objects: 9, done.\r\nCounting objects:  11% (1/9)\rCount");
  sorter.feed("ing objects: 100% (9/9)\rCounting objects: 100% (9/9), done.\r\n");
  sorter.feed("Delta compression using up to 2 threads\r\nTotal 9 (delta 2), reused 0\r\n");
  sorter.feed("fatal: unable to create temporary file: No space left on device\r\n");
  sorter.feed("error: a line past the limit is not kept");
  sorter.finish();

  REQUIRE(reports.size() == 3);
  CHECK(reports[0].done == 1);
  CHECK(reports[1].step == "counting objects");
  CHECK(reports[1].done == 9);
  CHECK(reports[2].total == 9);
  CHECK(said == "fatal: unable to create temporary file: No space left on device\n");
}

TEST_CASE("a repack's progress is told as git writes it, ending with every object written") {
  const TempDir dir;
  auto repository = engram::git::Repository::init(dir.path());
  REQUIRE(repository.has_value());
  for (int round = 0; round < 20; ++round) {
    write_file(dir.path() / fmt::format("memory-{}.md", round),
               fmt::format("# Round {}\n\n- Claim {} holds.\n", round, round));
    REQUIRE(repository->commit_all(fmt::format("round {}", round), {"engram", "engram@test"})
                .has_value());
  }
  std::vector<ProgressReport> reports;
  const auto packed = engram::git::pack_loose_objects(
      dir.path(), [&](std::string_view step, std::size_t done, std::size_t total) {
        reports.push_back({std::string(step), done, total});
      });
  REQUIRE(packed.has_value());
  REQUIRE(packed->objects > 0);
  REQUIRE_FALSE(reports.empty());
  for (const auto& report : reports) {
    CHECK(report.done <= report.total);
  }
  // The pack is written whole (git reports removing the loose copies after it).
  const auto written = std::find_if(reports.rbegin(), reports.rend(), [](const auto& report) {
    return report.step == "writing objects";
  });
  REQUIRE(written != reports.rend());
  CHECK(written->done == written->total);
  CHECK(written->total >= packed->objects);
}
