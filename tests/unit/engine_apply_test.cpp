// engine::apply: a plan lands only on files that still hold the bytes it was
// made from; a file someone rewrote in between keeps the writer's bytes, and
// then nothing is removed, so no claim can leave before its target is written.
#include "engine/apply.hpp"
#include "lib/temp_dir.hpp"
#include "store/scan.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

namespace fs = std::filesystem;
using engram::engine::FileChange;
using engram::engine::Plan;
using engram::store::content_hash;
using engram::test::read_file;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

// A change of `path` from `old_bytes` to `new_bytes` (nullopt: remove it).
FileChange change(const std::string& path, const std::string& old_bytes,
                  std::optional<std::string> new_bytes) {
  return FileChange{path, content_hash(old_bytes), std::make_shared<const std::string>(old_bytes),
                    std::move(new_bytes)};
}

// A plan that rewrites semantic/a.md, creates semantic/new.md and removes the episodic file.
Plan absorbing_plan() {
  Plan plan;
  plan.changes.push_back(change("semantic/a.md", "- old fact\n", "- old fact\n- new fact\n"));
  plan.changes.push_back(FileChange{"semantic/new.md", std::nullopt, nullptr, "- other\n"});
  plan.changes.push_back(change("episodic/2026-01-01-x.md", "- new fact\n- other\n", std::nullopt));
  return plan;
}

// A store holding the bytes absorbing_plan() was made from.
void write_base(const TempDir& dir) {
  write_file(dir / "semantic" / "a.md", "- old fact\n");
  write_file(dir / "episodic" / "2026-01-01-x.md", "- new fact\n- other\n");
}

} // namespace

TEST_CASE("apply writes every change and removes files last when nothing changed underneath") {
  const TempDir dir;
  write_base(dir);
  const auto result = engram::engine::apply(absorbing_plan(), dir.path());
  CHECK(result.written == std::vector<std::string>{"semantic/a.md", "semantic/new.md"});
  CHECK(result.removed == std::vector<std::string>{"episodic/2026-01-01-x.md"});
  CHECK(result.deferred.empty());
  CHECK(read_file(dir / "semantic" / "a.md") == "- old fact\n- new fact\n");
  CHECK(read_file(dir / "semantic" / "new.md") == "- other\n");
  CHECK_FALSE(fs::exists(dir / "episodic" / "2026-01-01-x.md"));
}

TEST_CASE("a file rewritten between plan and apply keeps the writer's bytes and nothing of the "
          "plan is written or removed") {
  const TempDir dir;
  write_base(dir);
  // The agent writes after the plan was made from the old bytes.
  const std::string agent = "- old fact\n- the agent's own line, written meanwhile\n";
  write_file(dir / "semantic" / "a.md", agent);

  const auto result = engram::engine::apply(absorbing_plan(), dir.path());
  CHECK(read_file(dir / "semantic" / "a.md") == agent);
  CHECK(std::find(result.deferred.begin(), result.deferred.end(), "semantic/a.md") !=
        result.deferred.end());
  // The episodic file's claims were bound for the deferred file: it stays, for the next run.
  CHECK(result.removed.empty());
  CHECK(read_file(dir / "episodic" / "2026-01-01-x.md") == "- new fact\n- other\n");
  CHECK(std::find(result.deferred.begin(), result.deferred.end(), "episodic/2026-01-01-x.md") !=
        result.deferred.end());
  // The plan's changes belong together (claims move from one file to
  // another): none lands, all wait for the next run, no temporary is left.
  CHECK(result.written.empty());
  CHECK_FALSE(fs::exists(dir / "semantic" / "new.md"));
  CHECK(result.deferred.size() == absorbing_plan().changes.size());
  for (const auto& entry : fs::recursive_directory_iterator(dir.path())) {
    CHECK_FALSE(engram::engine::is_temporary_name(entry.path().filename().string()));
  }
}

TEST_CASE("a file created by someone else after the plan is not overwritten") {
  const TempDir dir;
  write_base(dir);
  write_file(dir / "semantic" / "new.md", "the agent got here first\n");
  const auto result = engram::engine::apply(absorbing_plan(), dir.path());
  CHECK(read_file(dir / "semantic" / "new.md") == "the agent got here first\n");
  CHECK(result.removed.empty());
  CHECK(fs::exists(dir / "episodic" / "2026-01-01-x.md"));
}

TEST_CASE("a file to remove that changed meanwhile is kept") {
  const TempDir dir;
  write_base(dir);
  write_file(dir / "episodic" / "2026-01-01-x.md", "- new fact\n- other\n- and one more\n");
  const auto result = engram::engine::apply(absorbing_plan(), dir.path());
  CHECK(result.removed.empty());
  CHECK(read_file(dir / "episodic" / "2026-01-01-x.md") == "- new fact\n- other\n- and one more\n");
  CHECK(std::find(result.deferred.begin(), result.deferred.end(), "episodic/2026-01-01-x.md") !=
        result.deferred.end());
}

TEST_CASE("many removals, made on several threads, are all made and reported in plan order") {
  const TempDir dir;
  write_base(dir);
  Plan plan = absorbing_plan();
  std::vector<std::string> removed{"episodic/2026-01-01-x.md"};
  for (int i = 0; i < 600; ++i) {
    const auto path = fmt::format("episodic/2026-02-01-{:03}.md", i);
    const auto bytes = fmt::format("- fact {}\n", i);
    write_file(dir / path, bytes);
    plan.changes.push_back(change(path, bytes, std::nullopt));
    removed.push_back(path);
  }
  const auto result = engram::engine::apply(plan, dir.path());
  CHECK(result.deferred.empty());
  CHECK(result.written == std::vector<std::string>{"semantic/a.md", "semantic/new.md"});
  CHECK(result.removed == removed);
  CHECK(fs::is_empty(dir / "episodic"));
}

namespace {

// The files this process holds open whose names were taken away (replaced or
// removed), by the name they had: /proc/self/fd/N reads "<path> (deleted)".
std::vector<std::string> held_deleted(const fs::path& under) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    const auto target = fs::read_symlink(entry.path(), error).string();
    if (!error && target.starts_with(under.string()) && target.ends_with(" (deleted)")) {
      out.push_back(target.substr(0, target.size() - std::string(" (deleted)").size()));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Sets the open-file limit's soft value for a scope.
class OpenFileLimit {
public:
  explicit OpenFileLimit(rlim_t soft) {
    REQUIRE(::getrlimit(RLIMIT_NOFILE, &m_was) == 0);
    rlimit now = m_was;
    now.rlim_cur = std::min(soft, m_was.rlim_max);
    REQUIRE(::setrlimit(RLIMIT_NOFILE, &now) == 0);
  }
  ~OpenFileLimit() { ::setrlimit(RLIMIT_NOFILE, &m_was); }
  OpenFileLimit(const OpenFileLimit&) = delete;
  OpenFileLimit& operator=(const OpenFileLimit&) = delete;

private:
  rlimit m_was{};
};

} // namespace

TEST_CASE("apply lands every change of a plan larger than the open-file limit") {
  const TempDir dir;
  Plan plan;
  for (int i = 0; i < 300; ++i) {
    const auto path = fmt::format("episodic/2026-01-01-{:03}.md", i);
    write_file(dir / path, fmt::format("- fact {}\n", i));
    plan.changes.push_back(change(path, fmt::format("- fact {}\n", i), std::nullopt));
  }
  for (int i = 0; i < 100; ++i) {
    const auto path = fmt::format("semantic/{:03}.md", i);
    write_file(dir / path, "- old\n");
    plan.changes.insert(plan.changes.begin(), change(path, "- old\n", "- new\n"));
  }
  // Were a descriptor kept per file, the reads would run out of them past
  // 128, and apply would defer everything.
  const OpenFileLimit limit(128);
  const auto result = engram::engine::apply(plan.changes, dir.path());
  CHECK(result.deferred.empty());
  CHECK(result.written.size() == 100);
  CHECK(result.removed.size() == 300);
  CHECK(held_deleted(dir.path()).empty());
  CHECK(read_file(dir / "semantic" / "042.md") == "- new\n");
  CHECK_FALSE(fs::exists(dir / "episodic" / "2026-01-01-042.md"));
}

TEST_CASE("write_atomically replaces a file whole and leaves no temporary behind") {
  const TempDir dir;
  write_file(dir / "WORKING.md", "old\n");
  engram::engine::write_atomically(dir / "WORKING.md", "new\n");
  CHECK(read_file(dir / "WORKING.md") == "new\n");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) {
    ++entries;
  }
  CHECK(entries == 1);
}

TEST_CASE("is_temporary_name knows write_atomically's temporaries and nothing else") {
  CHECK(engram::engine::is_temporary_name(".MEMORY.md.a1B2c3.tmp"));
  CHECK(engram::engine::is_temporary_name(".pending.json.XyZ019.tmp"));
  CHECK_FALSE(engram::engine::is_temporary_name("MEMORY.md.a1B2c3.tmp"));
  CHECK_FALSE(engram::engine::is_temporary_name(".MEMORY.md.a1B2c.tmp"));
  CHECK_FALSE(engram::engine::is_temporary_name(".MEMORY.md.a1-2c3.tmp"));
  CHECK_FALSE(engram::engine::is_temporary_name(".notes.tmp"));
  CHECK_FALSE(engram::engine::is_temporary_name("draft.tmp"));
}
