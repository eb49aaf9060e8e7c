// engine::consolidate as the daemon runs it: with what it keeps of a store
// (engine::Kept) and told which paths changed. A run told what changed reads
// only those, so it must also be told what the runs before it wrote.
#include "engine/consolidation.hpp"
#include "git/repository.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using engram::test::read_file;
using engram::test::TempDir;
using engram::test::write_file;
namespace engine = engram::engine;
namespace git = engram::git;

namespace {

// Adds one claim to semantic/a.md on every run: engram's own write, which
// the next run must read back, not the bytes it read before.
class Appender final : public engram::Rule {
public:
  void run(engram::StoreView& store) override {
    const std::string path = "semantic/a.md";
    store.write(path, store.read(path) + "- Run " + std::to_string(++m_runs) + " added this.\n");
  }

private:
  int m_runs = 0;
};

const std::string k_memory = "---\ntype: semantic\ntags: [deploy]\n---\n- Deploys run at noon.\n";

// A store with two memories, committed.
void make_store(const TempDir& dir) {
  auto repository = git::Repository::init(dir.path());
  REQUIRE(repository.has_value());
  write_file(dir / "semantic" / "a.md", k_memory);
  write_file(dir / "semantic" / "b.md", k_memory);
  REQUIRE(repository->commit_all("init", git::default_signature()).has_value());
}

// A store as the daemon keeps it, with the Appender as its only rule.
struct Daemonish {
  Daemonish() { kept.scan.settled_ns = 0; } // keep files written a moment ago, as settled ones are

  engine::Outcome run(const TempDir& dir, const std::vector<std::string>* changed) {
    const engine::RuleSlot slot{"appender", engram::Phase::index, true, &rule};
    return engine::consolidate(dir.path(), engram::config::Settings::defaults(), {slot},
                               engram::Date(2026, 11, 22), engram::RunKind::lightweight,
                               engine::DryRun::no, &kept, changed);
  }

  Appender rule;
  engine::Kept kept;
};

} // namespace

TEST_CASE("a run told what changed reads back what the run before it wrote") {
  const TempDir dir;
  make_store(dir);
  Daemonish daemon;

  // The first run looks at everything (it is told nothing) and writes a.md.
  const auto first = daemon.run(dir, nullptr);
  REQUIRE(first.commit.has_value());
  CHECK(first.look_again == std::vector<std::string>{"semantic/a.md"});
  REQUIRE(daemon.kept.repository.has_value()); // kept open for the next run

  // Told only what the first run said to look at again: a.md is read anew.
  const auto second = daemon.run(dir, &first.look_again);
  REQUIRE(second.commit.has_value());
  const auto text = read_file(dir / "semantic" / "a.md");
  CHECK(text.find("- Run 1 added this.\n- Run 2 added this.\n") != std::string::npos);
  CHECK(second.applied.written == std::vector<std::string>{"semantic/a.md"});
}

TEST_CASE("a run told what changed commits only that, and a run told nothing commits the rest") {
  const TempDir dir;
  make_store(dir);
  Daemonish daemon;
  auto last = daemon.run(dir, nullptr);

  // The agent edits both files; the watcher saw only b.md (as if it missed a.md's event).
  write_file(dir / "semantic" / "b.md", k_memory + "- Deploys skip holidays.\n");
  write_file(dir / "semantic" / "unseen.md", k_memory);
  std::vector<std::string> changed = last.look_again;
  changed.push_back("semantic/b.md");
  last = daemon.run(dir, &changed);
  REQUIRE(last.snapshot_commit.has_value());
  auto repository = git::Repository::open(dir.path());
  REQUIRE(repository.has_value());
  // unseen.md was not looked at: still uncommitted.
  const auto left = repository->changes();
  REQUIRE(left.size() == 1);
  CHECK(left[0].path == "semantic/unseen.md");

  // A run told nothing (the daemon's full runs) finds it.
  last = daemon.run(dir, nullptr);
  REQUIRE(last.snapshot_commit.has_value());
  CHECK(repository->changes().empty());
}
