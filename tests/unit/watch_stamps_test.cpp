// The stamp index: told only which paths were touched (as FSEvents tells),
// it finds out from the disk what happened to each, and to what lies under a
// touched folder, and never reports what it was not told about.
#include "lib/temp_dir.hpp"
#include "watch/stamps.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using engram::test::TempDir;
using engram::test::write_file;
using engram::watch::Change;
using engram::watch::ChangeKind;
using engram::watch::StampIndex;
using engram::watch::watch_root;

namespace {

// The changes one refresh of `touched` reports, as sorted "kind path" strings.
std::vector<std::string> refresh(StampIndex& index, const std::vector<std::string>& touched) {
  std::vector<Change> changes;
  index.refresh(touched, changes);
  std::vector<std::string> lines;
  for (const Change& change : changes) {
    lines.push_back((change.kind == ChangeKind::changed ? "changed " : "removed ") +
                    change.path.generic_string());
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

} // namespace

TEST_CASE("the watchers' stamp index reports a touched file made, edited or removed, only it") {
  const TempDir dir;
  write_file(dir / "semantic/a.md", "A.\n");
  write_file(dir / "semantic/b.md", "B.\n");
  StampIndex index(watch_root(dir.path()), ".engram");

  write_file(dir / "semantic/c.md", "C.\n");
  write_file(dir / "semantic/b.md", "B, edited without a word.\n");
  CHECK(refresh(index, {"semantic/c.md"}) == std::vector<std::string>{"changed semantic/c.md"});
  // Touched but the same on disk (an event for a chmod, say): nothing.
  CHECK(refresh(index, {"semantic/a.md", "semantic/c.md"}).empty());
  fs::remove(dir / "semantic/a.md");
  CHECK(refresh(index, {"semantic/a.md"}) == std::vector<std::string>{"removed semantic/a.md"});
  // What it was not told of is found by the whole walk, once.
  std::vector<Change> all;
  index.refresh_all(all);
  REQUIRE(all.size() == 1);
  CHECK(all[0].path == "semantic/b.md");
  CHECK(all[0].kind == ChangeKind::changed);
}

TEST_CASE("the watchers' stamp index reports every file of a folder renamed in or away") {
  const TempDir dir;
  write_file(dir / "reference/x/a.md", "A.\n");
  write_file(dir / "reference/x/y/b.md", "B.\n");
  write_file(dir / "reference/xy.md", "Not under x.\n");
  write_file(dir / "reference/x-a.md", "Sorts between x and x/a.md.\n");
  StampIndex index(watch_root(dir.path()), ".engram");

  fs::rename(dir / "reference/x", dir / "reference/z");
  // Both names are touched; a path under a touched folder is not walked twice.
  CHECK(refresh(index, {"reference/z", "reference/x", "reference/z/y/b.md"}) ==
        std::vector<std::string>{"changed reference/z/a.md", "changed reference/z/y/b.md",
                                 "removed reference/x/a.md", "removed reference/x/y/b.md"});
  CHECK(refresh(index, {"reference/xy.md", "reference/x-a.md"}).empty());
}

TEST_CASE("the watchers' stamp index skips temporaries, .git's insides and the state folder") {
  const TempDir dir;
  write_file(dir / ".git/HEAD", "ref: refs/heads/main\n");
  StampIndex index(watch_root(dir.path()), ".engram");

  write_file(dir / "semantic/.a.md.swp", "swap");
  write_file(dir / ".git/objects/ab/cdef", "object");
  write_file(dir / ".engram/usage.jsonl", "{}\n");
  CHECK(refresh(index, {"semantic/.a.md.swp", ".git/objects/ab/cdef", ".git/objects",
                        ".engram/usage.jsonl", ".engram"})
            .empty());
  fs::create_directory(dir / ".git/rebase-merge");
  write_file(dir / ".git/rebase-merge/done", "pick\n");
  CHECK(refresh(index, {".git/rebase-merge", ".git/rebase-merge/done"}) ==
        std::vector<std::string>{"changed .git/rebase-merge"});
  fs::remove_all(dir / ".git/rebase-merge");
  CHECK(refresh(index, {".git/rebase-merge"}) ==
        std::vector<std::string>{"removed .git/rebase-merge"});
}

TEST_CASE("the watchers' stamp index walks everything when the store itself is touched") {
  const TempDir dir;
  StampIndex index(watch_root(dir.path()), ".engram");
  write_file(dir / "MEMORY.md", "# index\n");
  write_file(dir / "semantic/a.md", "A.\n");
  CHECK(refresh(index, {"", "MEMORY.md"}) ==
        std::vector<std::string>{"changed MEMORY.md", "changed semantic/a.md"});
}
