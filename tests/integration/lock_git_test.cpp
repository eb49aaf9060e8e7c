// Other people's git work, with the real binary: while the user's git holds
// index.lock or is in the middle of a merge or a rebase, engram waits; it
// commits once the lock is released; a lock nobody holds that has not changed
// for a minute is removed with a warning; one a process holds never is.
#include "lib/history.hpp"
#include "lib/time_scale.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <fcntl.h>
#include <sys/time.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// A configuration file with the given [git] lines.
fs::path git_config(const Sandbox& sandbox, const std::string& lines) {
  const fs::path path = sandbox.work("engram.toml");
  write_file(path, "[git]\n" + lines + "\n");
  return path;
}

// Sets the modification time of `path` to `seconds` ago.
void age(const fs::path& path, int seconds) {
  timeval now{};
  gettimeofday(&now, nullptr);
  const timeval times[2] = {{now.tv_sec - seconds, 0}, {now.tv_sec - seconds, 0}};
  REQUIRE(utimes(path.c_str(), times) == 0);
}

// A file this test process holds open, as a git that is writing it does.
class HeldFile {
public:
  // Creates `path` and keeps it open.
  explicit HeldFile(const fs::path& path)
      : m_fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644)) {
    REQUIRE(m_fd >= 0);
  }
  HeldFile(const HeldFile&) = delete;
  HeldFile& operator=(const HeldFile&) = delete;
  // Closes it (the file stays).
  ~HeldFile() { release(); }
  // Closes it now.
  void release() {
    if (m_fd >= 0) {
      ::close(m_fd);
      m_fd = -1;
    }
  }

private:
  int m_fd = -1;
};

} // namespace

TEST_CASE("a held index.lock makes consolidate wait, and it commits after the lock is released") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const fs::path config = git_config(sandbox, "lock_wait_s = 60");
  const std::string before = head_of(sandbox, store);
  const fs::path lock = store / ".git" / "index.lock";
  auto held = std::make_unique<HeldFile>(lock);

  // The user's git finishes after a while: the test releases the lock then,
  // having first looked at HEAD, which must not have moved while it was held.
  std::string head_while_locked;
  std::atomic<bool> released{false};
  std::thread user([&] {
    std::this_thread::sleep_for(scaled(std::chrono::milliseconds(800)));
    head_while_locked = sandbox.git(store, {"rev-parse", "HEAD"}).out;
    held->release();
    fs::remove(lock);
    released = true;
  });
  const auto started = std::chrono::steady_clock::now();
  const auto result = sandbox.engram({"--config", config.string(), "consolidate", "--store",
                                      store.string(), "--now", k_history_now});
  const auto took = std::chrono::steady_clock::now() - started;
  user.join();

  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(released);
  CHECK(head_while_locked == before + "\n");
  CHECK(took >= scaled(std::chrono::milliseconds(800)));
  CHECK_THAT(result.err, Catch::Contains("waiting for git") && Catch::Contains("index.lock"));
  const auto subjects = git_lines(sandbox, store, {"log", "--format=%s", before + "..HEAD"});
  REQUIRE(subjects.size() == 2);
  CHECK(subjects[0].starts_with("consolidate(full):"));
  CHECK(subjects[1].starts_with("snapshot:"));
  CHECK_FALSE(fs::exists(lock));
  check_sound(sandbox, store);
}

TEST_CASE("a stale index.lock that no process holds is removed with a warning") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const fs::path lock = store / ".git" / "index.lock";
  write_file(lock, "");
  age(lock, 120);
  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("removed the stale git lock " + lock.string()));
  CHECK_FALSE(fs::exists(lock));
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%s"}).starts_with("consolidate(full):"));
  check_sound(sandbox, store);
}

TEST_CASE("an old lock some process holds open is never removed, and engram gives up and changes "
          "nothing") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const fs::path config = git_config(sandbox, "lock_wait_s = 1");
  const std::string before = head_of(sandbox, store);
  const auto files = memory_files(store);
  const fs::path lock = store / ".git" / "index.lock";
  const HeldFile held(lock);
  age(lock, 120);

  const auto result = sandbox.engram({"--config", config.string(), "consolidate", "--store",
                                      store.string(), "--now", k_history_now});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("git is busy") && Catch::Contains("index.lock") &&
                             Catch::Contains("nothing was changed"));
  CHECK(fs::exists(lock));
  CHECK(head_of(sandbox, store) == before);
  CHECK(memory_files(store) == files);
}

TEST_CASE("a merge or a rebase in progress makes engram wait, then give up, changing nothing") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const fs::path config = git_config(sandbox, "lock_wait_s = 1");
  const std::string before = head_of(sandbox, store);
  const auto files = memory_files(store);
  const auto [marker, words] = GENERATE(table<std::string, std::string>({
      {"MERGE_HEAD", "a merge in progress"},
      {"rebase-merge", "a rebase in progress"},
      {"rebase-apply", "a rebase or am in progress"},
      {"CHERRY_PICK_HEAD", "a cherry-pick in progress"},
  }));
  INFO(marker);
  const fs::path path = store / ".git" / marker;
  if (marker.starts_with("rebase")) {
    fs::create_directories(path);
  } else {
    write_file(path, before + "\n");
  }
  age(path, 600); // never stale: these are not locks

  const auto result = sandbox.engram({"--config", config.string(), "consolidate", "--store",
                                      store.string(), "--now", k_history_now});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains(words));
  CHECK(fs::exists(path));
  CHECK(head_of(sandbox, store) == before);
  CHECK(memory_files(store) == files);
}
