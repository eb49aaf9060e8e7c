// HeldFiles under Freeing::detached: a command hands the files its run
// replaced and removed to a child process and returns; the child holds those
// files and nothing else (no lock, no pipe a caller reads to its end), and it
// and the helpers it makes close every one of them.
#include "base/fault.hpp"
#include "engine/held_files.hpp"
#include "lib/processes.hpp"
#include "lib/temp_dir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using engram::engine::Freeing;
using engram::engine::HeldFiles;
using engram::test::descriptors_of;
using engram::test::processes_named;
using engram::test::TempDir;

namespace {

// This process's children named as a detached freeing child is.
std::vector<pid_t> freeing_children() {
  std::vector<pid_t> out;
  for (const auto& seen : processes_named(engram::engine::k_freeing_child_name)) {
    if (seen.parent == ::getpid()) {
      out.push_back(seen.pid);
    }
  }
  return out;
}

// `count` files under dir/episodic, opened, then removed: what apply holds.
std::vector<int> removed_but_open(const TempDir& dir, int count) {
  std::vector<int> fds;
  for (int i = 0; i < count; ++i) {
    const auto path = dir / fmt::format("episodic/2026-01-01-{:03}.md", i);
    engram::test::write_file(path, fmt::format("- fact {}\n", i));
    fds.push_back(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    REQUIRE(fds.back() >= 0);
    fs::remove(path);
  }
  return fds;
}

// Sets the freeing policy for a scope.
class FreeingScope {
public:
  explicit FreeingScope(Freeing freeing) { engram::engine::set_freeing(freeing); }
  ~FreeingScope() { engram::engine::set_freeing(Freeing::waited); }
  FreeingScope(const FreeingScope&) = delete;
  FreeingScope& operator=(const FreeingScope&) = delete;
};

// Makes this process the reaper of its descendants' orphans for a scope.
class SubreaperScope {
public:
  SubreaperScope() { REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL) == 0); }
  ~SubreaperScope() { ::prctl(PR_SET_CHILD_SUBREAPER, 0UL, 0UL, 0UL, 0UL); }
  SubreaperScope(const SubreaperScope&) = delete;
  SubreaperScope& operator=(const SubreaperScope&) = delete;
};

// Sets ENGRAM_TEST_PAUSE_AT for a scope.
class PauseAt {
public:
  explicit PauseAt(const char* point) { ::setenv(engram::k_pause_variable, point, 1); }
  ~PauseAt() { ::unsetenv(engram::k_pause_variable); }
  PauseAt(const PauseAt&) = delete;
  PauseAt& operator=(const PauseAt&) = delete;
};

} // namespace

TEST_CASE("detached freeing hands the held files to a child that holds nothing else, and its "
          "helpers free them") {
  const TempDir dir;
  const FreeingScope detached(Freeing::detached);
  // The child's helpers outlive it: as the reaper of orphans, this process
  // gets them when the child ends, and can wait for each.
  const SubreaperScope subreaper;
  // What a command holds besides: the run lock, and a pipe its caller reads to the end.
  engram::test::write_file(dir / ".engram/run.lock", "");
  const int lock = ::open((dir / ".engram/run.lock").c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(lock >= 0);
  REQUIRE(::flock(lock, LOCK_EX) == 0);
  int output[2];
  REQUIRE(::pipe(output) == 0); // not close-on-exec, as stdout is not
  // Read without waiting: a child holding the write end shows as EAGAIN, not a hang.
  REQUIRE(::fcntl(output[0], F_SETFL, O_NONBLOCK) == 0);

  HeldFiles held;
  held.take(removed_but_open(dir, 300));
  {
    const PauseAt pause(engram::engine::k_freeing_child_pause);
    held.close();
  }
  // The command holds none of them now.
  for (const auto& target : descriptors_of(::getpid())) {
    CHECK_FALSE(target.starts_with((dir / "episodic").string()));
  }
  const auto children = freeing_children();
  REQUIRE(children.size() == 1);
  const pid_t child = children.front();
  int status = 0;
  REQUIRE(::waitpid(child, &status, WUNTRACED) == child);
  REQUIRE(WIFSTOPPED(status)); // stopped before it frees anything
  const auto holding = descriptors_of(child);
  CHECK(holding.size() == 300);
  for (const auto& target : holding) {
    INFO(target);
    CHECK(target.starts_with((dir / "episodic/2026-01-01-").string()));
    CHECK(target.ends_with(".md (deleted)"));
  }
  // It holds neither the lock nor the pipe: the lock is free once the
  // command lets go of it, and the caller reads the pipe to its end.
  ::close(lock);
  const int again = ::open((dir / ".engram/run.lock").c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(again >= 0);
  CHECK(::flock(again, LOCK_EX | LOCK_NB) == 0);
  ::close(again);
  ::close(output[1]);
  char byte = 0;
  CHECK(::read(output[0], &byte, 1) == 0); // the end: no writer is left
  ::close(output[0]);

  // Let go, it makes a helper for each of the three other shares (300
  // files: four shares of 64 or more), frees its own, and exits.
  REQUIRE(::kill(child, SIGCONT) == 0);
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // Its helpers, living or ended, are this process's children now.
  const auto helpers = freeing_children();
  CHECK(helpers.size() == 3);
  for (const pid_t helper : helpers) {
    REQUIRE(::waitpid(helper, &status, 0) == helper);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  CHECK(freeing_children().empty());
}

TEST_CASE("detached freeing closes a few files itself, and waited freeing makes no child") {
  const TempDir dir;
  const auto episodic_held = [&] {
    std::size_t n = 0;
    for (const auto& target : descriptors_of(::getpid())) {
      n += target.starts_with((dir / "episodic").string()) ? 1 : 0;
    }
    return n;
  };
  {
    const FreeingScope detached(Freeing::detached);
    HeldFiles held;
    held.take(removed_but_open(dir, 10));
    CHECK(episodic_held() == 10);
    held.close_in_background(); // kept for close() under detached
    CHECK(episodic_held() == 10);
    held.close();
    CHECK(episodic_held() == 0);
    CHECK(freeing_children().empty());
  }
  HeldFiles held;
  held.take(removed_but_open(dir, 200));
  held.close_in_background();
  held.close();
  CHECK(episodic_held() == 0);
  CHECK(freeing_children().empty());
}
