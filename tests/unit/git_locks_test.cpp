// git::find_busy, held_open and wait_until_idle: what counts as another git
// operation in progress, how waiting ends, and when a lock file is debris.
#include "git/locks.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <sys/time.h>
#include <unistd.h>

namespace fs = std::filesystem;
using engram::git::find_busy;
using engram::git::held_open;
using engram::git::LockWait;
using engram::git::wait_until_idle;
using engram::test::TempDir;
using engram::test::write_file;
using namespace std::chrono_literals;

namespace {

// A git folder with HEAD on main and nothing in progress.
fs::path make_gitdir(const TempDir& dir) {
  const fs::path gitdir = dir / ".git";
  write_file(gitdir / "HEAD", "ref: refs/heads/main\n");
  fs::create_directories(gitdir / "refs" / "heads");
  return gitdir;
}

// Sets the modification time of `path` to `seconds` ago.
void age(const fs::path& path, int seconds) {
  timeval now{};
  gettimeofday(&now, nullptr);
  const timeval times[2] = {{now.tv_sec - seconds, 0}, {now.tv_sec - seconds, 0}};
  REQUIRE(utimes(path.c_str(), times) == 0);
}

// A wait that never sleeps: each pause runs `on_pause` (with the pause's number) instead.
LockWait instant_wait(std::function<void(int)> on_pause, std::chrono::milliseconds total = 60s) {
  LockWait wait;
  wait.total = total;
  wait.stale_after = 60s;
  wait.sleep = [on_pause = std::move(on_pause), count = 0](std::chrono::milliseconds) mutable {
    on_pause(++count);
  };
  return wait;
}

} // namespace

TEST_CASE("find_busy sees the index lock, ref locks, merges, rebases, cherry-picks and reverts") {
  const TempDir dir;
  const fs::path gitdir = make_gitdir(dir);
  CHECK(find_busy(gitdir).empty());
  write_file(gitdir / "index.lock", "");
  write_file(gitdir / "refs" / "heads" / "main.lock", "");
  write_file(gitdir / "MERGE_HEAD", "0123\n");
  fs::create_directories(gitdir / "rebase-merge");
  fs::create_directories(gitdir / "rebase-apply");
  write_file(gitdir / "CHERRY_PICK_HEAD", "0123\n");
  write_file(gitdir / "REVERT_HEAD", "0123\n");
  const auto busy = find_busy(gitdir);
  REQUIRE(busy.size() == 7);
  CHECK(busy[0].path == gitdir / "index.lock");
  CHECK(busy[0].lock_file);
  CHECK(busy[1].path == gitdir / "refs" / "heads" / "main.lock");
  CHECK(busy[1].lock_file);
  for (std::size_t i = 2; i < busy.size(); ++i) {
    INFO(busy[i].what);
    CHECK_FALSE(busy[i].lock_file); // an operation in progress is never removed
  }
}

TEST_CASE("held_open is true while some process has the file open, false after") {
  const TempDir dir;
  const fs::path path = dir / "index.lock";
  write_file(path, "");
  CHECK_FALSE(held_open(path));
  const int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  CHECK(held_open(path));
  ::close(fd);
  CHECK_FALSE(held_open(path));
  CHECK_FALSE(held_open(dir / "missing.lock"));
}

TEST_CASE("wait_until_idle returns at once when nothing is in progress") {
  const TempDir dir;
  const fs::path gitdir = make_gitdir(dir);
  int pauses = 0;
  const auto waited = wait_until_idle(gitdir, instant_wait([&](int) { ++pauses; }));
  REQUIRE(waited.has_value());
  CHECK(waited->waited == 0ms);
  CHECK(pauses == 0);
}

TEST_CASE("wait_until_idle waits with growing pauses until the lock is released") {
  const TempDir dir;
  const fs::path gitdir = make_gitdir(dir);
  write_file(gitdir / "index.lock", "");
  std::vector<std::chrono::milliseconds> pauses;
  LockWait wait;
  wait.sleep = [&](std::chrono::milliseconds pause) {
    pauses.push_back(pause);
    if (pauses.size() == 4) {
      fs::remove(gitdir / "index.lock"); // the user's git finishes
    }
  };
  const auto waited = wait_until_idle(gitdir, wait);
  REQUIRE(waited.has_value());
  CHECK(pauses == std::vector<std::chrono::milliseconds>{25ms, 50ms, 100ms, 200ms});
  CHECK(waited->waited == 375ms);
  CHECK(waited->cleared_locks.empty());
}

TEST_CASE("wait_until_idle gives up after the total wait, naming what is in the way") {
  const TempDir dir;
  const fs::path gitdir = make_gitdir(dir);
  fs::create_directories(gitdir / "rebase-merge");
  int pauses = 0;
  const auto waited = wait_until_idle(gitdir, instant_wait([&](int) { ++pauses; }, 2s));
  REQUIRE_FALSE(waited.has_value());
  CHECK_THAT(waited.error(), Catch::Contains("a rebase in progress (rebase-merge/)"));
  CHECK_THAT(waited.error(), Catch::Contains("waited 2 s"));
  CHECK(pauses == 7); // 25 + 50 + 100 + 200 + 400 + 800 + the 425 left
  CHECK(fs::exists(gitdir / "rebase-merge"));
}

TEST_CASE("a lock nobody holds and unchanged for the stale time is removed, a fresh one is not") {
  const TempDir dir;
  const fs::path gitdir = make_gitdir(dir);
  write_file(gitdir / "index.lock", "");
  age(gitdir / "index.lock", 120);
  const auto waited = wait_until_idle(gitdir, instant_wait([](int) { FAIL("no pause expected"); }));
  REQUIRE(waited.has_value());
  CHECK(waited->cleared_locks == std::vector<fs::path>{gitdir / "index.lock"});
  CHECK_FALSE(fs::exists(gitdir / "index.lock"));

  write_file(gitdir / "index.lock", "");
  age(gitdir / "index.lock", 10);
  const auto fresh = wait_until_idle(gitdir, instant_wait([](int) {}, 100ms));
  CHECK_FALSE(fresh.has_value());
  CHECK(fs::exists(gitdir / "index.lock"));
}

TEST_CASE("an old lock that a process holds open is never removed") {
  const TempDir dir;
  const fs::path gitdir = make_gitdir(dir);
  write_file(gitdir / "index.lock", "");
  age(gitdir / "index.lock", 3600);
  const int fd = ::open((gitdir / "index.lock").c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  const auto waited = wait_until_idle(gitdir, instant_wait([](int) {}, 100ms));
  ::close(fd);
  CHECK_FALSE(waited.has_value());
  CHECK(fs::exists(gitdir / "index.lock"));
}

TEST_CASE("a merge in progress is waited for however old it is, never removed") {
  const TempDir dir;
  const fs::path gitdir = make_gitdir(dir);
  write_file(gitdir / "MERGE_HEAD", "0123\n");
  age(gitdir / "MERGE_HEAD", 3600);
  const auto waited = wait_until_idle(gitdir, instant_wait([&](int pause) {
                                        if (pause == 3) {
                                          fs::remove(gitdir / "MERGE_HEAD"); // merge concluded
                                        }
                                      }));
  REQUIRE(waited.has_value());
  CHECK(waited->cleared_locks.empty());
}
