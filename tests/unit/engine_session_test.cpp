// engine::Session: one writing run at a time per store, git's operations
// waited out, and a commit step a lock stops midway redone whole.
#include "base/error.hpp"
#include "engine/session.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <thread>

namespace fs = std::filesystem;
using engram::Expected;
using engram::engine::Session;
using engram::test::TempDir;
using engram::test::write_file;
namespace git = engram::git;

namespace {

// A store folder with a repository and one commit.
void make_store(const TempDir& dir) {
  auto repository = git::Repository::init(dir.path());
  REQUIRE(repository.has_value());
  write_file(dir / "MEMORY.md", "# Memory index\n");
  REQUIRE(repository->commit_all("init", git::default_signature()).has_value());
}

// Default settings with `git.lock_wait_s` set.
engram::config::Settings settings_waiting(std::int64_t seconds) {
  auto settings = engram::config::Settings::defaults();
  settings.set("git.lock_wait_s", seconds);
  return settings;
}

} // namespace

TEST_CASE("a commit step stopped by a lock another process took is redone whole") {
  const TempDir dir;
  make_store(dir);
  Session session = Session::open(dir.path(), settings_waiting(5));
  write_file(dir / "MEMORY.md", "# Memory index\n\n- a.md\n");
  const fs::path lock = session.repository().gitdir() / "index.lock";
  int attempts = 0;
  const auto id = session.commit("test", [&](git::Repository& repository) {
    ++attempts;
    if (attempts == 1) {
      write_file(lock, ""); // the user's git takes the index right then
      auto stopped = repository.commit_paths({"MEMORY.md"}, "index: test", git::default_signature());
      fs::remove(lock); // and lets it go
      return stopped;
    }
    return repository.commit_paths({"MEMORY.md"}, "index: test", git::default_signature());
  });
  CHECK(attempts == 2);
  REQUIRE(id.has_value());
  CHECK(session.repository().head() == *id);
  CHECK(session.repository().is_clean());
}

TEST_CASE("a commit step that fails for another reason is not retried and names what failed") {
  const TempDir dir;
  make_store(dir);
  Session session = Session::open(dir.path(), settings_waiting(5));
  int attempts = 0;
  CHECK_THROWS_WITH(session.commit("cannot commit the test",
                                   [&](git::Repository&) {
                                     ++attempts;
                                     return Expected<git::CommitId, git::Failure>(
                                         engram::unexpected(git::Failure{"disk on fire"}));
                                   }),
                    Catch::Contains("cannot commit the test: disk on fire"));
  CHECK(attempts == 1);
}

TEST_CASE("a second writing session on the same store waits for the first, then gives up") {
  const TempDir dir;
  make_store(dir);
  const Session first = Session::open(dir.path(), settings_waiting(1));
  const auto started = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(Session::open(dir.path(), settings_waiting(1)),
                    Catch::Contains("another engram run is working on it"));
  CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(900));
}

TEST_CASE("opening a session on a folder without a repository says to run init") {
  const TempDir dir;
  CHECK_THROWS_WITH(Session::open(dir.path(), settings_waiting(1)),
                    Catch::Contains("not an engram store") && Catch::Contains("engram init"));
}
