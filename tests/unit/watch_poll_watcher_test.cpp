// The polling backend: a stat walk diffed with the last one finds creations,
// edits that keep the size, deletions and renames, and skips ignored paths.
#include "lib/temp_dir.hpp"
#include "watch/poll_watcher.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using engram::test::TempDir;
using engram::test::write_file;
using engram::watch::Change;
using engram::watch::ChangeKind;
using engram::watch::PollWatcher;
using engram::watch::WatchOptions;

namespace {

// The changes of one read_changes call, as "kind path" strings in sorted order.
std::vector<std::string> read(PollWatcher& watcher) {
  std::vector<Change> changes;
  watcher.read_changes(changes);
  std::vector<std::string> lines;
  for (const Change& change : changes) {
    const char* kind = change.kind == ChangeKind::changed   ? "changed "
                       : change.kind == ChangeKind::removed ? "removed "
                                                            : "rescan ";
    lines.push_back(kind + change.path.generic_string());
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

// Options with a short interval.
WatchOptions options() {
  WatchOptions result;
  result.backend = "poll";
  result.poll_interval_ms = 250;
  return result;
}

} // namespace

TEST_CASE("the polling watcher has no descriptor and asks to be called at its interval") {
  const TempDir dir;
  PollWatcher watcher(dir.path(), options());
  CHECK(watcher.name() == "poll");
  CHECK(watcher.fd() == -1);
  CHECK(watcher.poll_interval() == std::chrono::milliseconds(250));
}

TEST_CASE("the polling watcher reports nothing for files that were there at its start") {
  const TempDir dir;
  write_file(dir / "MEMORY.md", "# index\n");
  write_file(dir / "semantic/a.md", "A.\n");
  PollWatcher watcher(dir.path(), options());
  CHECK(read(watcher).empty());
}

TEST_CASE("the polling watcher reports created, edited and deleted files") {
  const TempDir dir;
  write_file(dir / "semantic/a.md", "A.\n");
  write_file(dir / "semantic/b.md", "B.\n");
  PollWatcher watcher(dir.path(), options());

  write_file(dir / "episodic/new/c.md", "C.\n");
  CHECK(read(watcher) == std::vector<std::string>{"changed episodic/new/c.md"});

  // Same size, only the modification time tells.
  const auto before = fs::last_write_time(dir / "semantic/a.md");
  write_file(dir / "semantic/a.md", "Z.\n");
  fs::last_write_time(dir / "semantic/a.md", before + std::chrono::seconds(5));
  CHECK(read(watcher) == std::vector<std::string>{"changed semantic/a.md"});

  fs::remove(dir / "semantic/b.md");
  CHECK(read(watcher) == std::vector<std::string>{"removed semantic/b.md"});
  CHECK(read(watcher).empty());
}

TEST_CASE("the polling watcher reports a rename as the old path removed and the new changed") {
  const TempDir dir;
  write_file(dir / "semantic/a.md", "A.\n");
  write_file(dir / "semantic/b.md", "B.\n");
  PollWatcher watcher(dir.path(), options());

  fs::rename(dir / "semantic/a.md", dir / "semantic/c.md");
  CHECK(read(watcher) ==
        std::vector<std::string>{"changed semantic/c.md", "removed semantic/a.md"});

  // Renamed over an existing file with the same size and time: the inode tells.
  write_file(dir / "semantic/new", "X.\n");
  fs::last_write_time(dir / "semantic/new", fs::last_write_time(dir / "semantic/b.md"));
  CHECK(read(watcher) == std::vector<std::string>{"changed semantic/new"});
  fs::rename(dir / "semantic/new", dir / "semantic/b.md");
  CHECK(read(watcher) == std::vector<std::string>{"changed semantic/b.md", "removed semantic/new"});
}

TEST_CASE("the polling watcher reports a removed folder's files") {
  const TempDir dir;
  write_file(dir / "reference/x/a.md", "A.\n");
  write_file(dir / "reference/x/y/b.md", "B.\n");
  PollWatcher watcher(dir.path(), options());
  fs::remove_all(dir / "reference/x");
  CHECK(read(watcher) ==
        std::vector<std::string>{"removed reference/x/a.md", "removed reference/x/y/b.md"});
}

TEST_CASE("the polling watcher skips temporaries, .git's insides and the state folder") {
  const TempDir dir;
  write_file(dir / ".git/HEAD", "ref: refs/heads/main\n");
  PollWatcher watcher(dir.path(), options());

  write_file(dir / "semantic/.a.md.swp", "swap");
  write_file(dir / "semantic/a.md~", "backup");
  write_file(dir / "semantic/#a.md#", "autosave");
  write_file(dir / "semantic/4913", "");
  write_file(dir / "semantic/.a.md.Xy12Ab.tmp", "engram's temporary");
  write_file(dir / ".git/objects/ab/cdef", "object");
  write_file(dir / ".git/HEAD", "ref: refs/heads/other\n");
  write_file(dir / ".engram/usage.jsonl", "{}\n");
  CHECK(read(watcher).empty());

  write_file(dir / ".git/index.lock", "");
  fs::create_directory(dir / ".git/rebase-merge");
  CHECK(read(watcher) ==
        std::vector<std::string>{"changed .git/index.lock", "changed .git/rebase-merge"});
  fs::remove(dir / ".git/index.lock");
  CHECK(read(watcher) == std::vector<std::string>{"removed .git/index.lock"});
}

TEST_CASE(
    "the polling watcher watches a store reached through a link, with an absolute state folder") {
  const TempDir dir;
  write_file(dir / "store/MEMORY.md", "# index\n");
  fs::create_directory_symlink(dir / "store", dir / "link");
  WatchOptions absolute = options();
  absolute.state_dir = (dir / "link/.engram").string();
  PollWatcher watcher(dir / "link/", absolute);
  write_file(dir / "store/.engram/usage.jsonl", "{}\n");
  write_file(dir / "store/MEMORY.md", "# index, edited\n");
  CHECK(read(watcher) == std::vector<std::string>{"changed MEMORY.md"});
}

TEST_CASE("the polling watcher refuses a root that is not a folder") {
  const TempDir dir;
  write_file(dir / "file", "");
  CHECK_THROWS(PollWatcher(dir / "file", options()));
  CHECK_THROWS(PollWatcher(dir / "missing", options()));
}
