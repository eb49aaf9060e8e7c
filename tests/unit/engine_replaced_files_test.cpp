// engine::ReplacedFiles and carry_over: a file engram replaces keeps a second
// name while a writer may append to it; what is appended there reaches the
// live file, whole lines while the writer holds it, and the second name goes
// once nobody can write to it.
#include "engine/apply.hpp"
#include "engine/replaced_files.hpp"
#include "lib/temp_dir.hpp"
#include "store/scan.hpp"

#include <catch2/catch.hpp>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace fs = std::filesystem;
using engram::engine::carry_over;
using engram::engine::ReplacedFiles;
using engram::engine::Replacing;
using engram::store::content_hash;
using engram::store::Layout;
using engram::test::read_file;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

// Replaces `relative` (holding `before`) with `after` the way apply does:
// the file in place is kept under a second name as the new one takes it.
void replace(const fs::path& root, const std::string& relative, const std::string& before,
             const std::string& after) {
  ReplacedFiles kept(root, Layout{});
  kept.begin({Replacing{relative, before.size(), content_hash(before)}});
  REQUIRE(engram::engine::write_atomically_over(
      root / relative, after, content_hash(before), engram::engine::Unchanged::required,
      [&](const fs::path& temporary) { kept.replace(0, temporary); }));
}

void write_through(int fd, const std::string& text) {
  REQUIRE(::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
}

std::size_t entries_in(const fs::path& folder) {
  if (!fs::exists(folder)) {
    return 0;
  }
  return static_cast<std::size_t>(
      std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

} // namespace

TEST_CASE("what a held descriptor appends to a replaced file is carried over, whole lines first") {
  const TempDir dir;
  const fs::path root = dir.path();
  const std::string before = "- one\n- two\n";
  write_file(root / "WORKING.md", before);
  const int fd = ::open((root / "WORKING.md").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  REQUIRE(fd >= 0);
  replace(root, "WORKING.md", before, "- two\n");
  write_through(fd, "- three\n- fou");
  // The writer holds it: only the whole line goes over, and the file stays kept.
  auto carried = carry_over(root, Layout{}, std::time(nullptr));
  CHECK(carried.paths == std::vector<std::string>{"WORKING.md"});
  CHECK(carried.still_held == 1);
  CHECK(read_file(root / "WORKING.md") == "- two\n- three\n");
  write_through(fd, "r\n");
  ::close(fd);
  carried = carry_over(root, Layout{}, std::time(nullptr));
  CHECK(read_file(root / "WORKING.md") == "- two\n- three\n- four\n");
  CHECK(carried.still_held == 0);
  CHECK(entries_in(root / ".engram" / "replaced") == 0);
  // Nothing is carried twice.
  CHECK(carry_over(root, Layout{}, std::time(nullptr)).paths.empty());
  CHECK(read_file(root / "WORKING.md") == "- two\n- three\n- four\n");
}

TEST_CASE("a replaced file rewritten through a held descriptor gives the live file its new lines") {
  const TempDir dir;
  const fs::path root = dir.path();
  const std::string before = "- one\n- two\n";
  write_file(root / "notes.md", before);
  const int fd = ::open((root / "notes.md").c_str(), O_WRONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  replace(root, "notes.md", before, "- one\n- two\n- engram's\n");
  // A truncating save through the old descriptor: not an append.
  REQUIRE(::ftruncate(fd, 0) == 0);
  write_through(fd, "- one\n- changed two\n");
  ::close(fd);
  const auto carried = carry_over(root, Layout{}, std::time(nullptr));
  CHECK(carried.still_held == 0);
  CHECK(read_file(root / "notes.md") == "- one\n- two\n- engram's\n- changed two\n");
}

TEST_CASE("a file an agent renamed into place after the plan read it is the one kept, its lines "
          "carried over") {
  const TempDir dir;
  const fs::path root = dir.path();
  const std::string before = "- one\n- two\n";
  write_file(root / "WORKING.md", before);
  ReplacedFiles kept(root, Layout{});
  kept.begin({Replacing{"WORKING.md", before.size(), content_hash(before)}});
  write_file(root / ".WORKING.md.ours.tmp", "- two\n");
  // An agent's read-modify-rename save, landing after every check.
  write_file(root / "saved.tmp", before + "- three\n");
  fs::rename(root / "saved.tmp", root / "WORKING.md");
  kept.replace(0, root / ".WORKING.md.ours.tmp");
  CHECK_FALSE(fs::exists(root / ".WORKING.md.ours.tmp"));
  CHECK(read_file(root / "WORKING.md") == "- two\n");
  const auto carried = carry_over(root, Layout{}, std::time(nullptr));
  CHECK(carried.paths == std::vector<std::string>{"WORKING.md"});
  CHECK(read_file(root / "WORKING.md") == "- two\n- three\n");
  CHECK(entries_in(root / ".engram" / "replaced") == 0);
}

TEST_CASE("a second name made for a replacement that never happened is let go, the file as it is") {
  const TempDir dir;
  const fs::path root = dir.path();
  const std::string bytes = "- one\n";
  write_file(root / "WORKING.md", bytes);
  ReplacedFiles kept(root, Layout{});
  kept.begin({Replacing{"WORKING.md", bytes.size(), content_hash(bytes)}});
  REQUIRE(kept.keep(0)); // and then the run died before its rename
  const auto carried = carry_over(root, Layout{}, std::time(nullptr));
  CHECK(carried.still_held == 0);
  CHECK(read_file(root / "WORKING.md") == bytes);
  CHECK(entries_in(root / ".engram" / "replaced") == 0);
}

TEST_CASE("a file a run removes is kept aside, and a late line written to it comes back") {
  const TempDir dir;
  const fs::path root = dir.path();
  const std::string before = "- old note\n";
  write_file(root / "episodic" / "note.md", before);
  const int fd = ::open((root / "episodic" / "note.md").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  REQUIRE(fd >= 0);
  ReplacedFiles kept(root, Layout{});
  kept.begin({Replacing{"episodic/note.md", before.size(), content_hash(before)}});
  REQUIRE(kept.move_aside(0));
  REQUIRE_FALSE(fs::exists(root / "episodic" / "note.md"));
  write_through(fd, "- late line\n");
  ::close(fd);
  carry_over(root, Layout{}, std::time(nullptr));
  CHECK(read_file(root / "episodic" / "note.md") == "- late line\n");
  CHECK(entries_in(root / ".engram" / "replaced") == 0);
}
