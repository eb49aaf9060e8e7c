// The index's file written by engram (git/index_file.cpp): byte for byte
// what libgit2 writes, read by git as its own, never read back by libgit2
// for what it already holds, yet read again once someone else writes it;
// racily clean entries whose files changed are smudged; a held index.lock
// is left alone. And the files a rename replaces are freed only when let go
// (git/retired_files.cpp).
#include "git/index_file.hpp"
#include "git/libgit2.hpp"
#include "git/retired_files.hpp"
#include "lib/shell.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <fmt/format.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using engram::git::detail::Index;
using engram::git::detail::IndexFile;
using engram::git::detail::Owned;
using engram::git::detail::RetiredFiles;
using engram::test::read_file;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

using Repo = Owned<git_repository, git_repository_free>;

// What `git -C dir args` printed, and whether it exited 0.
engram::test::Shell git(const TempDir& dir, const std::string& args) {
  return engram::test::shell(fmt::format("git -C '{}' {}", dir.path().string(), args));
}

// The files whose bytes differ from the index's, as `git diff --name-only` lists them.
std::string unstaged(const TempDir& dir) {
  const auto listed = git(dir, "diff --name-only");
  REQUIRE(listed.ok);
  return listed.out;
}

// Sets a file's (or link's) modification time to `seconds` since the epoch.
void set_mtime(const fs::path& path, std::time_t seconds) {
  const struct timespec times[2] = {{seconds, 0}, {seconds, 0}};
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW) == 0);
}

// A repository in `dir` whose index holds `files`, changed long ago (none
// racily clean), written by libgit2 as version 4.
void make(const TempDir& dir, Repo& repo, Index& index) {
  engram::git::detail::ensure_library();
  REQUIRE(git_repository_init(&repo.pointer, dir.path().c_str(), 0) == 0);
  const char* files[] = {"a.md", "b/c.md", "b/d/e.md", "b/d/ee.md", "bb.md",
                         "episodic/2026-11-20-a-long-name-shared-by-many.md",
                         "episodic/2026-11-20-a-long-name-shared-by-many-more.md"};
  for (const char* name : files) {
    write_file(dir.path() / name, fmt::format("# {}\n\nSome words.\n", name));
  }
  write_file(dir.path() / "run.sh", "#!/bin/sh\n");
  fs::permissions(dir.path() / "run.sh", fs::perms::owner_exec, fs::perm_options::add);
  fs::create_symlink("a.md", dir.path() / "link.md");
  REQUIRE(git_repository_index(&index.pointer, repo.pointer) == 0);
  std::vector<std::string> staged(std::begin(files), std::end(files));
  staged.insert(staged.end(), {"run.sh", "link.md"});
  for (const auto& name : staged) {
    set_mtime(dir.path() / name, 1'000'000'000);
    REQUIRE(git_index_add_bypath(index.pointer, name.c_str()) == 0);
  }
  REQUIRE(git_index_get_bypath(index.pointer, "link.md", 0) != nullptr);
  REQUIRE(git_index_set_version(index.pointer, 4) == 0);
  REQUIRE(git_index_write(index.pointer) == 0);
}

// A repository as make() leaves it, for a test to take apart:
// `auto& [dir, repo, index] = made;`.
struct Made {
  TempDir dir;
  Repo repo;
  Index index;
  Made() { make(dir, repo, index); }
};

// Writes `index` with IndexFile, published at once; returns finish's code.
int write_ours(git_repository* repo, git_index* index) {
  auto file = IndexFile::start(repo, index);
  REQUIRE(file.has_value());
  file->publish(std::chrono::milliseconds(50));
  return file->finish(index);
}

// The stat size `git ls-files --debug` shows for `path`.
std::string listed_size(const TempDir& dir, const std::string& path) {
  const auto listed = git(dir, "ls-files --debug -- " + path);
  REQUIRE(listed.ok);
  const auto at = listed.out.find("size: ");
  REQUIRE(at != std::string::npos);
  return listed.out.substr(at + 6, listed.out.find('\t', at) - at - 6);
}

} // namespace

TEST_CASE("the index's file is byte for byte what libgit2 writes, and git reads it as its own") {
  Made made;
  auto& [dir, repo, index] = made;
  const std::string libgit2s = read_file(dir.path() / ".git/index");

  REQUIRE(write_ours(repo.pointer, index.pointer) == 0);
  CHECK(read_file(dir.path() / ".git/index") == libgit2s);
  const auto listed = git(dir, "ls-files -s");
  REQUIRE(listed.ok);
  CHECK_THAT(listed.out, Catch::Contains("100755") && Catch::Contains("120000") &&
                             Catch::Contains("b/d/ee.md") &&
                             Catch::Contains("episodic/2026-11-20-a-long-name-shared-by-many-more.md"));
  CHECK(unstaged(dir).empty());
}

TEST_CASE("libgit2 keeps what it holds after engram writes its index, and reads what git writes") {
  Made made;
  auto& [dir, repo, index] = made;
  REQUIRE(write_ours(repo.pointer, index.pointer) == 0);

  // Staged in memory only: a read that is not forced keeps it, since the
  // file is what libgit2 holds (a read would have dropped it).
  write_file(dir.path() / "memory-only.md", "staged, not written\n");
  REQUIRE(git_index_add_bypath(index.pointer, "memory-only.md") == 0);
  REQUIRE(git_index_read(index.pointer, 0) == 0);
  CHECK(git_index_get_bypath(index.pointer, "memory-only.md", 0) != nullptr);

  // git writes the index: the same read takes git's file.
  write_file(dir.path() / "by-git.md", "staged by git\n");
  REQUIRE(git(dir, "add by-git.md").ok);
  REQUIRE(git_index_read(index.pointer, 0) == 0);
  CHECK(git_index_get_bypath(index.pointer, "by-git.md", 0) != nullptr);
  CHECK(git_index_get_bypath(index.pointer, "memory-only.md", 0) == nullptr);
}

TEST_CASE("a racily clean entry whose file changed is written with size 0, and stays so") {
  Made made;
  auto& [dir, repo, index] = made;
  // Changed after the index on disk was written: both are racily clean.
  struct stat written {};
  REQUIRE(::stat((dir.path() / ".git/index").c_str(), &written) == 0);
  const std::time_t later = written.st_mtim.tv_sec + 10;
  for (const char* name : {"changed.md", "same.md"}) {
    write_file(dir.path() / name, "one\n");
    set_mtime(dir.path() / name, later);
    REQUIRE(git_index_add_bypath(index.pointer, name) == 0);
  }
  // Rewritten in the same tick as it was staged: same size, same mtime.
  write_file(dir.path() / "changed.md", "two\n");
  set_mtime(dir.path() / "changed.md", later);

  REQUIRE(write_ours(repo.pointer, index.pointer) == 0);
  CHECK(listed_size(dir, "changed.md") == "0");
  CHECK(listed_size(dir, "same.md") == "4");
  CHECK(git_index_get_bypath(index.pointer, "changed.md", 0)->file_size == 0);
  CHECK(git_index_get_bypath(index.pointer, "same.md", 0)->file_size == 4);
  CHECK(unstaged(dir) == "changed.md\n");

  // Written again once neither looks racy: the smudge stays.
  REQUIRE(write_ours(repo.pointer, index.pointer) == 0);
  CHECK(listed_size(dir, "changed.md") == "0");
}

TEST_CASE("where a filter may apply, racily clean entries are smudged unread") {
  Made made;
  auto& [dir, repo, index] = made;
  write_file(dir.path() / ".gitattributes", "*.md text\n");
  REQUIRE(git_index_add_bypath(index.pointer, ".gitattributes") == 0);
  struct stat written {};
  REQUIRE(::stat((dir.path() / ".git/index").c_str(), &written) == 0);
  write_file(dir.path() / "same.md", "one\n");
  set_mtime(dir.path() / "same.md", written.st_mtim.tv_sec + 10);
  REQUIRE(git_index_add_bypath(index.pointer, "same.md") == 0);

  REQUIRE(write_ours(repo.pointer, index.pointer) == 0);
  CHECK(listed_size(dir, "same.md") == "0");
  CHECK(unstaged(dir).empty()); // git hashes it again and finds it as staged
}

TEST_CASE("a held index.lock fails the write as locked and is left as it is") {
  Made made;
  auto& [dir, repo, index] = made;
  const std::string before = read_file(dir.path() / ".git/index");
  write_file(dir.path() / ".git/index.lock", "git's own\n");
  write_file(dir.path() / "new.md", "new\n");
  REQUIRE(git_index_add_bypath(index.pointer, "new.md") == 0);

  CHECK(write_ours(repo.pointer, index.pointer) == GIT_ELOCKED);
  CHECK_THAT(git_error_last()->message, Catch::Contains("index.lock"));
  CHECK(read_file(dir.path() / ".git/index.lock") == "git's own\n");
  CHECK(read_file(dir.path() / ".git/index") == before);
}

TEST_CASE("another process's index.lock is waited out, and the index written after it") {
  Made made;
  auto& [dir, repo, index] = made;
  write_file(dir.path() / "new.md", "new\n");
  REQUIRE(git_index_add_bypath(index.pointer, "new.md") == 0);
  auto file = IndexFile::start(repo.pointer, index.pointer);
  REQUIRE(file.has_value());
  // `git status` refreshing the index holds its lock for a moment.
  const fs::path lock = dir.path() / ".git/index.lock";
  write_file(lock, "git's own\n");
  CHECK(file->locked());
  file->publish(std::chrono::seconds(30));
  std::this_thread::sleep_for(std::chrono::milliseconds(100)); // git's moment; any length will do
  fs::remove(lock);
  CHECK(file->finish(index.pointer) == 0); // waits for the helper
  CHECK_FALSE(fs::exists(lock));
  CHECK(git(dir, "ls-files new.md").out == "new.md\n");
  CHECK(unstaged(dir).empty());
}

TEST_CASE("an index file never published writes nothing") {
  Made made;
  auto& [dir, repo, index] = made;
  const std::string before = read_file(dir.path() / ".git/index");
  write_file(dir.path() / "new.md", "new\n");
  REQUIRE(git_index_add_bypath(index.pointer, "new.md") == 0);
  {
    auto file = IndexFile::start(repo.pointer, index.pointer);
    REQUIRE(file.has_value());
    CHECK(file->finish(index.pointer) == 0); // not published: nothing to take
  } // a commit that failed: the helper is told to drop it
  CHECK(read_file(dir.path() / ".git/index") == before);
  CHECK_FALSE(fs::exists(dir.path() / ".git/index.lock"));
}

TEST_CASE("an index with conflicts, or none on disk yet, is left to libgit2") {
  TempDir dir;
  Repo repo;
  engram::git::detail::ensure_library();
  REQUIRE(git_repository_init(&repo.pointer, dir.path().c_str(), 0) == 0);
  Index index;
  REQUIRE(git_repository_index(&index.pointer, repo.pointer) == 0);
  write_file(dir.path() / "a.md", "a\n");
  REQUIRE(git_index_add_bypath(index.pointer, "a.md") == 0);
  CHECK_FALSE(IndexFile::start(repo.pointer, index.pointer).has_value()); // no file yet

  REQUIRE(git_index_write(index.pointer) == 0);
  git_index_entry ours = *git_index_get_bypath(index.pointer, "a.md", 0);
  git_index_entry theirs = ours;
  REQUIRE(git_index_conflict_add(index.pointer, nullptr, &ours, &theirs) == 0);
  // The helper finds the conflict and writes nothing; finish has libgit2 write it.
  CHECK(write_ours(repo.pointer, index.pointer) == 0);
  const auto unmerged = git(dir, "ls-files --unmerged");
  REQUIRE(unmerged.ok);
  CHECK_THAT(unmerged.out, Catch::Contains("a.md"));
}

TEST_CASE("a retired file stays allocated across the rename until it is let go") {
  TempDir dir;
  const fs::path old_file = dir.path() / "index";
  write_file(old_file, "the old index\n");
  write_file(dir.path() / "index.lock", "the new index\n");
  // Whether this process still has a file open that no name leads to.
  const auto holds_removed = [&] {
    for (const auto& fd : fs::directory_iterator("/proc/self/fd")) {
      std::error_code error;
      const auto target = fs::read_symlink(fd.path(), error).string();
      if (target == old_file.string() + " (deleted)") {
        return true;
      }
    }
    return false;
  };
  {
    RetiredFiles retired;
    retired.hold(old_file);
    retired.hold(dir.path() / "not-there");
    CHECK(retired.held() == 1);
    fs::rename(dir.path() / "index.lock", old_file);
    CHECK(holds_removed());
    retired.close_later();
    CHECK(retired.held() == 0);
  } // waits for the helper
  CHECK_FALSE(holds_removed());
  CHECK(read_file(old_file) == "the new index\n");
}
