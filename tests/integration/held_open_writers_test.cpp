// Writers engram replaces a file under: an agent holding a memory file open
// for appending (`exec 3>>WORKING.md`) across runs, and an agent appending
// while a run applies its plan. What they write reaches the live file (and,
// through the next snapshot, history); nothing waits in a file nobody names.
#include "lib/history.hpp"
#include "lib/paused_run.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

constexpr const char* k_today = "2026-11-22";

// A store whose WORKING.md is far over its guard, so every full run moves
// items out of it and replaces it. Its path.
fs::path overflowing_store(const Sandbox& sandbox) {
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  std::string working = "---\ntype: working\ncreated: 2026-10-01\n---\n# Working memory\n\n"
                        "## Current focus\n";
  for (int i = 0; i < 60; ++i) {
    working += fmt::format("- 2026-10-{:02}: Observed that batch {} of the import took longer "
                           "than the one before\n",
                           i % 28 + 1, i);
  }
  write_file(store / "WORKING.md", working);
  git_out(sandbox, store, {"add", "-A"});
  git_out(sandbox, store, {"commit", "-q", "-m", "agent's working memory"});
  return store;
}

// One write(2) of `line` through `fd`, as `echo line >&3` does.
void write_through(int fd, const std::string& line) {
  REQUIRE(::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()));
}

// Every memory file's bytes, one after the other (not the generated ones).
std::string all_memories(const fs::path& store) {
  std::string out;
  for (const auto& [path, bytes] : memory_files(store)) {
    if (path != "MEMORY.md" && path != "CORE.md" && path != ".index.json") {
      out += bytes;
    }
  }
  return out;
}

// The files kept under second names in the state folder, manifests included.
std::size_t kept_files(const fs::path& store) {
  const fs::path folder = store / ".engram" / "replaced";
  if (!fs::exists(folder)) {
    return 0;
  }
  return static_cast<std::size_t>(
      std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

} // namespace

TEST_CASE("lines written through a descriptor held open while runs replace the file are kept") {
  const Sandbox sandbox;
  const fs::path store = overflowing_store(sandbox);
  const std::string before = read_file(store / "WORKING.md");
  const int fd = ::open((store / "WORKING.md").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  REQUIRE(fd >= 0);

  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_today});
  REQUIRE(read_file(store / "WORKING.md") != before); // replaced: fd names the old file now
  write_through(fd, "- Held descriptor note heldzqa was written after the run.\n");
  // The writer still holds it: the second name stays, the line is carried over.
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_today});
  CHECK_THAT(all_memories(store), Catch::Contains("heldzqa"));
  CHECK(kept_files(store) > 0);
  CHECK_THAT(git_out(sandbox, store, {"log", "-p", "--format=%s"}), Catch::Contains("heldzqa"));

  write_through(fd, "- Held descriptor note heldzqb was written last.\n");
  ::close(fd);
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_today});
  const std::string memories = all_memories(store);
  CHECK_THAT(memories, Catch::Contains("heldzqa"));
  CHECK_THAT(memories, Catch::Contains("heldzqb"));
  // Each line once, and nothing is kept once no writer holds the file.
  CHECK(memories.find("heldzqa") == memories.rfind("heldzqa"));
  CHECK(memories.find("heldzqb") == memories.rfind("heldzqb"));
  CHECK(kept_files(store) == 0);
  check_sound(sandbox, store);
}

TEST_CASE("a line written through a descriptor of a file a run removes is kept") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  // An episodic note long expired: the run decays it and removes the file.
  const fs::path note = store / "episodic" / "2026-01-05-deploy.md";
  write_file(note, "---\ntype: episodic\ncreated: 2026-01-05\ndecay_after: 2026-02-05\n"
                   "tags: [deploy]\n---\n# Deploy\n\n- The deploy script needs the VPN.\n");
  git_out(sandbox, store, {"add", "-A"});
  git_out(sandbox, store, {"commit", "-q", "-m", "agent's note"});
  const int fd = ::open(note.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  REQUIRE(fd >= 0);
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_today});
  REQUIRE_FALSE(fs::exists(note));
  write_through(fd, "- A late line heldzqc about the deploy.\n");
  ::close(fd);
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_today});
  CHECK_THAT(all_memories(store), Catch::Contains("heldzqc"));
  CHECK(kept_files(store) == 0);
  check_sound(sandbox, store);
}

TEST_CASE("an agent's append while a run applies its plan is written with the run's, not a reason "
          "to wait") {
  const Sandbox sandbox;
  const fs::path store = overflowing_store(sandbox);
  const std::string before = read_file(store / "WORKING.md");
  Run run(sandbox, "run", {"consolidate", "--store", store.string(), "--now", k_today},
          "before-rename-1");
  REQUIRE(run.wait_paused());
  const int fd = ::open((store / "WORKING.md").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  REQUIRE(fd >= 0);
  write_through(fd, "- 2026-11-22: Appended heldzqd while the run was applying.\n");
  ::close(fd);
  run.resume();
  const auto done = run.finish();
  INFO(done.out << done.err);
  CHECK(done.exit_code == 0);
  // The move landed (WORKING.md is much shorter), and the agent's line is in it.
  const std::string after = read_file(store / "WORKING.md");
  CHECK(after.size() < before.size());
  CHECK_THAT(after, Catch::Contains("heldzqd"));
  CHECK(kept_files(store) == 0);
  // The next run commits the agent's line as the agent's.
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_today});
  CHECK_THAT(git_out(sandbox, store, {"log", "-p", "--format=%s"}), Catch::Contains("heldzqd"));
  check_sound(sandbox, store);
}
