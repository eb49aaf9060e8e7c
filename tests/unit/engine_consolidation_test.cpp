// engine::consolidate as the daemon runs it: with what it keeps of a store
// (engine::Kept) and told which paths changed. A run told what changed reads
// only those, so it must also be told what the runs before it wrote.
#include "engine/consolidation.hpp"
#include "git/repository.hpp"
#include "lib/temp_dir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <optional>
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

namespace {

// Sees the store as the rules do: every memory's bytes, and what the model
// says changed since this rule's last run. Writes one file on some runs, as
// a rule that edits does, so the next run's model must not keep its edit
// unless it landed.
class Lister final : public engram::Rule {
public:
  void run(engram::StoreView& store) override {
    seen.clear();
    for (const auto layer : {engram::Layer::semantic, engram::Layer::episodic}) {
      for (const auto& path : store.files(layer)) {
        seen[path] = store.read(path);
      }
    }
    changed = last == 0 ? std::nullopt : store.changed_since(last);
    if (write_next) {
      store.write("semantic/rule.md",
                  "---\ntype: semantic\n---\n- Written by run " + std::to_string(++runs) + ".\n");
    }
    last = store.revision();
  }

  std::map<std::string, std::string> seen;
  std::optional<std::vector<std::string>> changed;
  std::uint64_t last = 0;
  bool write_next = false;
  int runs = 0;
};

// Every memory file of the store, as on disk.
std::map<std::string, std::string> on_disk(const TempDir& dir) {
  std::map<std::string, std::string> files;
  for (const auto* folder : {"semantic", "episodic"}) {
    if (!fs::exists(dir / folder)) {
      continue;
    }
    for (const auto& entry : fs::directory_iterator(dir / folder)) {
      files[fs::relative(entry.path(), dir.path()).generic_string()] = read_file(entry.path());
    }
  }
  return files;
}

} // namespace

TEST_CASE("a run told what changed works on the last run's model, updated along those paths") {
  const TempDir dir;
  make_store(dir);
  Lister rule;
  engine::Kept kept;
  kept.scan.settled_ns = 0;
  const engine::RuleSlot slot{"lister", engram::Phase::index, true, &rule};
  const auto run = [&](const std::vector<std::string>* changed) {
    return engine::consolidate(dir.path(), engram::config::Settings::defaults(), {slot},
                               engram::Date(2026, 11, 22), engram::RunKind::lightweight,
                               engine::DryRun::no, &kept, changed);
  };
  auto last = run(nullptr);
  REQUIRE(kept.model.has_value());
  CHECK(rule.seen == on_disk(dir));
  CHECK_FALSE(rule.changed.has_value()); // its first run: nothing to ask about

  // An agent's edits, creations and removals, told as a watcher tells them;
  // on some runs the rule writes a file too. After each, the rules see the
  // store as it is on disk, and what changed includes every path touched.
  unsigned seed = 7;
  const auto next = [&] { return seed = seed * 1103515245 + 12345, (seed >> 16) % 6; };
  for (int round = 0; round < 24; ++round) {
    std::vector<std::string> changed = last.look_again;
    std::vector<std::string> touched;
    for (int edit = 0; edit < 2; ++edit) {
      const std::string path = "semantic/m" + std::to_string(next()) + ".md";
      if (next() == 0 && fs::exists(dir / path)) {
        fs::remove(dir / path);
      } else {
        write_file(dir / path, "---\ntype: semantic\n---\n- Round " + std::to_string(round) +
                                   " wrote this, " + std::to_string(edit) + ".\n");
      }
      changed.push_back(path);
      touched.push_back(path);
    }
    rule.write_next = round % 3 == 0;
    const bool wrote_before = rule.write_next;
    last = run(&changed);
    INFO("round " << round);
    auto expected = on_disk(dir);
    if (wrote_before) {
      // The rule saw the store before its own write landed.
      expected.erase("semantic/rule.md");
      rule.seen.erase("semantic/rule.md");
    }
    CHECK(rule.seen == expected);
    REQUIRE(rule.changed.has_value());
    for (const auto& path : touched) {
      CHECK(std::find(rule.changed->begin(), rule.changed->end(), path) != rule.changed->end());
    }
    CHECK(std::find(rule.changed->begin(), rule.changed->end(), "semantic/a.md") ==
          rule.changed->end());
  }
  // A run told nothing reads the whole store: a new model, whose revisions
  // the rule's old one is not of.
  last = run(nullptr);
  CHECK(rule.seen == on_disk(dir));
  CHECK_FALSE(rule.changed.has_value());
}
