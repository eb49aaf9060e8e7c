// What is never a change (editor temporaries, .git's insides, the state
// folder), which .git entries are git markers, and which folders are pruned.
#include "watch/watcher.hpp"

#include <catch2/catch.hpp>

using engram::watch::is_git_marker;
using engram::watch::is_ignored;
using engram::watch::is_pruned;

namespace {

// One path and whether it is ignored.
struct Row {
  const char* path;
  bool ignored;
};

} // namespace

TEST_CASE("watchers ignore editor temporaries, .git's insides and the state folder only") {
  const Row rows[] = {
      {"MEMORY.md", false},
      {"semantic/scraping.md", false},
      {"episodic/2024-05-01-deploy.md", false},
      {".index.json", false},
      {"notes.txt", false},
      {"semantic/.x.md.swp", true},    // vim swap
      {"semantic/.x.md.swo", true},    // vim's second swap
      {"semantic/.x.md.swx", true},    // vim's probe swap
      {"semantic/x.md~", true},        // vim, emacs, nano backup
      {"semantic/#x.md#", true},       // emacs autosave
      {"semantic/.#x.md", true},       // emacs lock link
      {"semantic/4913", true},         // vim's writability probe
      {"semantic/.~lock.x.md#", true}, // LibreOffice lock
      {"semantic/x.md.tmp", true},
      {"semantic/.x.md.a1B2c3.tmp", true}, // engram's own temporary
      {"#", false},
      {"semantic/4913.md", false},
      {"semantic/x.tmp.md", false},
      {".git", true},
      {".git/HEAD", true},
      {".git/objects/ab/cdef", true},
      {".git/refs/heads/main", true},
      {".git/index", true},
      {".git/index.lock", false},
      {".git/MERGE_HEAD", false},
      {".git/rebase-merge", false},
      {".git/refs/index.lock", true}, // a ref lock, not the index's
      {"sub/.git/index.lock", true},  // only the store's own repository counts
      {".engram", true},
      {".engram/usage.jsonl", true},
      {".engram/locks/run.lock", true},
      {".engrams/x.md", false},
      {"semantic/.engram", false}, // the state folder is at the top only
  };
  for (const Row& row : rows) {
    INFO(row.path);
    CHECK(is_ignored(row.path, ".engram") == row.ignored);
  }
}

TEST_CASE("watchers compare the state folder by whole components, however it is spelled") {
  CHECK(is_ignored("var/engram/log", "var/engram"));
  CHECK(is_ignored("var/engram/log", "./var/engram/"));
  CHECK_FALSE(is_ignored("var/engramx/log", "var/engram"));
  CHECK_FALSE(is_ignored("var/x.md", "var/engram"));
  CHECK_FALSE(is_ignored(".engram/x", ""));
}

TEST_CASE("watchers know the top-level .git entries of a git operation in progress") {
  CHECK(is_git_marker(".git/index.lock"));
  CHECK(is_git_marker(".git/MERGE_HEAD"));
  CHECK(is_git_marker(".git/CHERRY_PICK_HEAD"));
  CHECK(is_git_marker(".git/REVERT_HEAD"));
  CHECK(is_git_marker(".git/rebase-merge"));
  CHECK(is_git_marker(".git/rebase-apply"));
  CHECK_FALSE(is_git_marker(".git/HEAD"));
  CHECK_FALSE(is_git_marker("index.lock"));
  CHECK_FALSE(is_git_marker(".git/refs/index.lock"));
  CHECK_FALSE(is_git_marker("x/.git/index.lock"));
}

TEST_CASE("watchers never walk into .git's subfolders or the state folder") {
  CHECK_FALSE(is_pruned("", ".engram"));
  CHECK_FALSE(is_pruned("semantic", ".engram"));
  CHECK_FALSE(is_pruned(".git", ".engram"));
  CHECK(is_pruned(".git/objects", ".engram"));
  CHECK(is_pruned(".git/refs/heads", ".engram"));
  CHECK(is_pruned("vendor/.git", ".engram"));
  CHECK(is_pruned(".engram", ".engram"));
  CHECK(is_pruned(".engram/locks", ".engram"));
  CHECK_FALSE(is_pruned(".engramx", ".engram"));
}
