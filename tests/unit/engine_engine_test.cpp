// Tests of the rule loop: phase order, per-rule transactions, enabling, run kinds.
#include "engine/engine.hpp"
#include "engine/workspace.hpp"
#include "lib/temp_dir.hpp"
#include "store/scan.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>

using namespace engram;
using engram::engine::RuleSlot;

namespace {

// A rule that appends its name to a log file, then optionally throws.
class LoggingRule : public Rule {
public:
  LoggingRule(std::string name, bool throws) : m_name(std::move(name)), m_throws(throws) {}
  void run(StoreView& store) override {
    const std::string log = "semantic/log.md";
    std::string body = store.exists(log) ? store.body(log) : "";
    if (!store.exists(log)) {
      store.write(log, "");
    }
    store.set_body(log, body + "- " + m_name + "\n");
    store.record(Action{"", "logged", "", "", log, m_name});
    if (m_throws) {
      throw std::runtime_error(m_name + " broke");
    }
  }

private:
  std::string m_name;
  bool m_throws;
};

// A rule that tries to write outside the store's layers.
class EscapingRule : public Rule {
public:
  void run(StoreView& store) override { store.write("../outside.md", "x"); }
};

// A rule that appends a line to the agent's USER.md.
class AgentFileRule : public Rule {
public:
  void run(StoreView& store) override {
    store.set_body("USER.md", store.body("USER.md") + "- Added by a rule.\n");
  }
};

struct Fixture {
  engram::test::TempDir dir;
  config::Settings settings = config::Settings::defaults();
  store::Layout layout;

  engine::Plan run(std::vector<RuleSlot> rules, RunKind kind = RunKind::full,
                   engine::Progress* progress = nullptr) {
    const auto snapshot = store::scan(dir.path(), layout, store::ScanLimits{});
    engine::Workspace workspace(snapshot, layout, settings, Date(2026, 11, 22), kind);
    return engine::run_rules(workspace, std::move(rules), settings, kind, progress);
  }
};

std::string written(const engine::Plan& plan, const std::string& path) {
  for (const auto& change : plan.changes) {
    if (change.path == path && change.new_bytes) {
      return *change.new_bytes;
    }
  }
  return "";
}

} // namespace

TEST_CASE("rules run in phase order, then by name, whatever order they were loaded in") {
  Fixture f;
  LoggingRule index("z-index", false), guard("guard-rule", false), decay_b("b-decay", false),
      decay_a("a-decay", false);
  const auto plan = f.run({{"z-index", Phase::index, true, &index},
                           {"b-decay", Phase::decay, false, &decay_b},
                           {"guard-rule", Phase::guard, true, &guard},
                           {"a-decay", Phase::decay, false, &decay_a}});
  CHECK(plan.rules == std::vector<std::string>{"guard-rule", "a-decay", "b-decay", "z-index"});
  CHECK(written(plan, "semantic/log.md") == "- guard-rule\n- a-decay\n- b-decay\n- z-index\n");
  REQUIRE(plan.record.size() == 4);
  CHECK(plan.record[1].rule == "a-decay");
}

// Every update a run_rules call gives, as `step done/total units`.
struct HeardProgress : engine::Progress {
  std::vector<std::string> heard;
  void update(std::string_view step, std::size_t done, std::size_t total,
              std::string_view units) override {
    heard.push_back(fmt::format("{} {}/{} {}", step, done, total, units));
  }
};

TEST_CASE("the rules report their progress: each rule as it starts, of the rules this run runs") {
  Fixture f;
  LoggingRule guard("guard-rule", false), broken("broken", true), decay("a-decay", false);
  HeardProgress progress;
  // A lightweight run leaves the decay rule out of the count as well as the run.
  f.run({{"guard-rule", Phase::guard, true, &guard},
         {"broken", Phase::merge, true, &broken},
         {"a-decay", Phase::decay, false, &decay}},
        RunKind::lightweight, &progress);
  CHECK(progress.heard == std::vector<std::string>{"rule guard-rule 0/2 rules",
                                                   "rule broken 1/2 rules", "planned 2/2 rules"});
}

// A rule that tells the host of its progress over three items.
class CountingRule : public Rule {
public:
  void run(StoreView& store) override {
    for (std::size_t done = 0; done <= 3; ++done) {
      store.progress(done, 3, "notes");
    }
  }
};

TEST_CASE("a rule's own progress is told within its step, and nothing after the rules") {
  Fixture f;
  LoggingRule guard("guard-rule", false);
  CountingRule counting;
  HeardProgress progress;
  f.run({{"guard-rule", Phase::guard, true, &guard}, {"counting", Phase::decay, true, &counting}},
        RunKind::full, &progress);
  CHECK(progress.heard ==
        std::vector<std::string>{"rule guard-rule 0/2 rules", "rule counting 1/2 rules",
                                 "rule counting 0/3 notes", "rule counting 1/3 notes",
                                 "rule counting 2/3 notes", "rule counting 3/3 notes",
                                 "planned 2/2 rules"});
  // Without an observer, a rule's progress goes nowhere.
  CHECK_NOTHROW(f.run({{"counting", Phase::decay, true, &counting}}));
}

TEST_CASE("a rule that throws loses its own changes and the others go on") {
  Fixture f;
  LoggingRule first("first", false), broken("broken", true), last("last", false);
  const auto plan = f.run({{"first", Phase::guard, true, &first},
                           {"broken", Phase::decay, true, &broken},
                           {"last", Phase::index, true, &last}});
  CHECK(written(plan, "semantic/log.md") == "- first\n- last\n");
  CHECK(plan.failed_rules == std::vector<std::string>{"broken"});
  CHECK(plan.rules == std::vector<std::string>{"first", "last"});
  // The record keeps no action of the broken rule except its failure.
  std::vector<std::string> actions;
  for (const auto& a : plan.record) {
    actions.push_back(a.rule + ":" + a.action);
  }
  CHECK(actions == std::vector<std::string>{"first:logged", "broken:failed", "last:logged"});
  CHECK(plan.record[1].reason == "broken broke");
}

TEST_CASE("a rule that writes outside the store's layers is stopped and discarded") {
  Fixture f;
  EscapingRule escaping;
  LoggingRule fine("fine", false);
  const auto plan =
      f.run({{"escaping", Phase::guard, true, &escaping}, {"fine", Phase::index, true, &fine}});
  CHECK(plan.failed_rules == std::vector<std::string>{"escaping"});
  CHECK(plan.changes.size() == 1);
  CHECK(plan.changes[0].path == "semantic/log.md");
}

TEST_CASE("a rule that changes one of the agent's own core files is stopped and discarded") {
  Fixture f;
  f.layout.agent_core = {"USER.md"};
  std::ofstream(f.dir.path() / "USER.md") << "# User\n\n- Ana, in Lisbon.\n";
  AgentFileRule editing;
  LoggingRule fine("fine", false);
  const auto plan =
      f.run({{"editing", Phase::guard, true, &editing}, {"fine", Phase::index, true, &fine}});
  CHECK(plan.failed_rules == std::vector<std::string>{"editing"});
  REQUIRE(plan.changes.size() == 1);
  CHECK(plan.changes[0].path == "semantic/log.md");
  REQUIRE(plan.record.size() >= 1);
  CHECK_THAT(plan.record[0].reason, Catch::Contains("USER.md is the agent's own file"));
}

TEST_CASE("a disabled rule does not run and a lightweight run skips full-only rules") {
  Fixture f;
  LoggingRule guard("working-memory", false), decay("episodic-decay", false), index("index", false);
  f.settings.set("rules.working-memory.enabled", false);
  auto plan = f.run({{"working-memory", Phase::guard, true, &guard},
                     {"episodic-decay", Phase::decay, false, &decay},
                     {"index", Phase::index, true, &index}},
                    RunKind::lightweight);
  CHECK(plan.rules == std::vector<std::string>{"index"});
}

TEST_CASE("a plan lists writes before removals and nothing for untouched files") {
  Fixture f;
  engram::test::write_file(f.dir.path() / "episodic/2026-01-01-a.md", "old\n");
  engram::test::write_file(f.dir.path() / "semantic/keep.md", "keep\n");
  class Mover : public Rule {
  public:
    void run(StoreView& store) override {
      store.write("semantic/z-new.md", "moved: " + store.body("episodic/2026-01-01-a.md"));
      store.remove("episodic/2026-01-01-a.md");
    }
  } mover;
  const auto plan = f.run({{"mover", Phase::decay, false, &mover}});
  REQUIRE(plan.changes.size() == 2);
  CHECK(plan.changes[0].path == "semantic/z-new.md");
  CHECK_FALSE(plan.changes[0].base_hash);
  CHECK(plan.changes[1].path == "episodic/2026-01-01-a.md");
  CHECK_FALSE(plan.changes[1].new_bytes);
  CHECK(plan.changes[1].base_hash == store::content_hash("old\n"));
}
