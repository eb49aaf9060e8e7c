// make_watcher: the backend names it knows, and what it refuses.
#include "base/error.hpp"
#include "base/platform.hpp"
#include "lib/temp_dir.hpp"
#include "watch/watcher.hpp"

#include <catch2/catch.hpp>
#include <string>

using engram::test::TempDir;
using engram::test::write_file;
using engram::watch::make_watcher;
using engram::watch::WatchOptions;

namespace {

// Options naming `backend`.
WatchOptions with_backend(const std::string& backend) {
  WatchOptions options;
  options.backend = backend;
  return options;
}

} // namespace

TEST_CASE("make_watcher makes the polling backend when asked for poll") {
  const TempDir dir;
  const auto watcher = make_watcher(dir.path(), with_backend("poll"));
  CHECK(watcher->name() == "poll");
  CHECK(watcher->fd() == -1);
}

TEST_CASE("make_watcher picks the platform's native backend for auto") {
  const TempDir dir;
  const auto watcher = make_watcher(dir.path(), with_backend("auto"));
  // The Linux backends have inotify; the portable (POSIX) ones do not.
  if (std::string(engram::platform::name()) == "linux") {
    CHECK(watcher->name() == "inotify");
    CHECK(watcher->fd() >= 0);
    CHECK(make_watcher(dir.path(), with_backend("inotify"))->name() == "inotify");
  } else {
    CHECK(watcher->name() == "poll");
    CHECK_THROWS_AS(make_watcher(dir.path(), with_backend("inotify")), engram::Error);
  }
}

TEST_CASE("make_watcher refuses the backend of another platform, naming where it runs") {
  const TempDir dir;
  // This suite runs on Linux, in the Linux and the portable builds: FSEvents is macOS's.
  CHECK_THROWS_WITH(make_watcher(dir.path(), with_backend("fsevents")),
                    Catch::Contains("no fsevents watcher backend (macOS has one)"));
}

TEST_CASE("make_watcher refuses an unknown backend, a missing root and a bad interval") {
  const TempDir dir;
  write_file(dir / "file", "");
  CHECK_THROWS_AS(make_watcher(dir.path(), with_backend("kqueue")), engram::Error);
  CHECK_THROWS_AS(make_watcher(dir / "missing", with_backend("auto")), engram::Error);
  CHECK_THROWS_AS(make_watcher(dir / "file", with_backend("poll")), engram::Error);
  WatchOptions options = with_backend("poll");
  options.poll_interval_ms = 0;
  CHECK_THROWS_AS(make_watcher(dir.path(), options), engram::Error);
}
