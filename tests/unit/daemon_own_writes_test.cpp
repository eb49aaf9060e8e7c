// daemon::OwnWrites: engram's own writes do not count as the agent's changes,
// for as long as the file still has the bytes engram wrote.
#include "daemon/own_writes.hpp"
#include "lib/temp_dir.hpp"
#include "store/scan.hpp"

#include <catch2/catch.hpp>

using engram::daemon::OwnWrites;
using engram::test::TempDir;
using engram::test::write_file;

TEST_CASE(
    "to the daemon a file engram wrote is its own while it keeps those bytes, the agent's after") {
  const TempDir store;
  write_file(store / "MEMORY.md", "# index\n");
  OwnWrites own;
  own.remember({{"MEMORY.md", engram::store::content_hash("# index\n")}});
  CHECK(own.explains(store.path(), "MEMORY.md"));
  CHECK(own.explains(store.path(), "MEMORY.md")); // several events for one write

  write_file(store / "MEMORY.md", "# index, edited by the agent\n");
  CHECK_FALSE(own.explains(store.path(), "MEMORY.md"));
  // Forgotten: even the same bytes again are now the agent's.
  write_file(store / "MEMORY.md", "# index\n");
  CHECK_FALSE(own.explains(store.path(), "MEMORY.md"));
  CHECK(own.size() == 0);
}

TEST_CASE("to the daemon a file engram removed is its own removal while it stays gone") {
  const TempDir store;
  OwnWrites own;
  own.remember({{"episodic/2026-01-01-old.md", std::nullopt}});
  CHECK(own.explains(store.path(), "episodic/2026-01-01-old.md"));
  write_file(store / "episodic" / "2026-01-01-old.md", "recreated\n");
  CHECK_FALSE(own.explains(store.path(), "episodic/2026-01-01-old.md"));
}

TEST_CASE("to the daemon a path engram never wrote is always the agent's") {
  const TempDir store;
  write_file(store / "WORKING.md", "now\n");
  OwnWrites own;
  CHECK_FALSE(own.explains(store.path(), "WORKING.md"));
}
