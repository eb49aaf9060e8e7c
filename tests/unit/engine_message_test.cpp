// Tests of rendering the record: the summary line counts actions by verb, in
// the order the verbs first appear, in words a reader of `git log` understands.
#include "base/json_text.hpp"
#include "engine/message.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <utility>

using engram::Action;
using engram::engine::Plan;

TEST_CASE(
    "the summary line counts verbs in the order they first appear and names what was skipped") {
  Plan plan;
  plan.record = {
      Action{"dedupe", "absorbed", "- A fact.", "semantic/a.md", "semantic/b.md", ""},
      Action{"dedupe", "duplicate", "- Another.", "semantic/a.md", "semantic/b.md", ""},
      Action{"dedupe", "merged", "", "semantic/a.md", "semantic/b.md", ""},
      Action{"stale-refs", "skipped", "", "", "", "no project_root"},
      Action{"dedupe", "absorbed", "- A third.", "semantic/c.md", "semantic/b.md", ""},
      Action{"dedupe", "flagged", "", "semantic/d.md", "semantic/b.md", "younger than 14 days"},
  };
  CHECK(engram::engine::summary_line(plan) ==
        "consolidate(full): 2 claims absorbed, 1 duplicate, 1 merged, 1 rule skipped, 1 flagged");
  const auto record = engram::engine::render_record(plan);
  CHECK(record.find("- stale-refs skipped (no project_root)\n") != std::string::npos);
  CHECK(record.find("- dedupe flagged: semantic/d.md → semantic/b.md (younger than 14 days)\n") !=
        std::string::npos);
}

TEST_CASE("each action is one line: its claim quoted, flattened and cut at 100 bytes, never "
          "mid-character") {
  // 99 ASCII bytes and then "é" (2 bytes): byte 100 is inside it, so the cut is before it.
  const std::string long_claim = std::string(99, 'x') + "\u00e9 and more";
  Plan plan;
  plan.record = {
      Action{"r", "absorbed", "Line one\nline\ttwo\r", "episodic/a.md", "", ""},
      Action{"r", "moved", "", "", "semantic/b.md", "why"},
      Action{"r", "absorbed", long_claim, "episodic/a.md", "semantic/b.md", ""},
      Action{"r", "absorbed", std::string(100, 'y'), "", "", ""},
  };
  CHECK(engram::engine::render_record(plan) ==
        "- r absorbed \"Line one line two \": episodic/a.md\n"
        "- r moved: semantic/b.md (why)\n"
        "- r absorbed \"" +
            std::string(99, 'x') +
            "\u2026\": episodic/a.md \u2192 semantic/b.md\n"
            "- r absorbed \"" +
            std::string(100, 'y') + "\"\n");
  engram::engine::ApplyResult applied;
  applied.deferred = {"semantic/c.md"};
  const auto text = engram::engine::commit_message(plan, applied);
  CHECK(text.note.starts_with(engram::engine::render_record(plan) + "\nDeferred to the next run"));
  CHECK(text.message.starts_with(engram::engine::summary_line(plan) + "\n\n"));
  CHECK(text.message.find("- semantic/c.md\n\nEngram-Run: full\nEngram-Rules: none\n") !=
        std::string::npos);
}

TEST_CASE("a commit message gives each file one line of counts, and no more lines however large "
          "the run, and the note has every action") {
  Plan plan;
  plan.record = {
      Action{"episodic-decay", "absorbed", "A.", "episodic/1.md", "semantic/api.md", ""},
      Action{"episodic-decay", "absorbed", "B.", "episodic/2.md", "semantic/api.md", ""},
      Action{"contradictions", "superseded", "C.", "semantic/api.md", "", "newer"},
      Action{"episodic-decay", "decayed", "", "episodic/1.md", "", ""},
  };
  const auto small = engram::engine::commit_message(plan, {});
  CHECK(small.message.find("\nsemantic/api.md: 2 claims absorbed, 1 superseded (from 2 files)\n") !=
        std::string::npos);
  CHECK(small.message.find("\nepisodic/1.md: 1 episodic decayed\n") != std::string::npos);
  CHECK(small.message.find("\"A.\"") == std::string::npos); // claims are the note's
  CHECK(small.note == engram::engine::render_record(plan));

  for (int i = 0; i < 5000; ++i) {
    plan.record.push_back(Action{"episodic-decay", "absorbed", "Claim " + std::to_string(i) + ".",
                                 "episodic/e" + std::to_string(i) + ".md",
                                 "semantic/s" + std::to_string(i % 700) + ".md", ""});
  }
  engram::engine::ApplyResult applied;
  for (int i = 0; i < 300; ++i) {
    applied.deferred.push_back("semantic/d" + std::to_string(i) + ".md");
  }
  const auto large = engram::engine::commit_message(plan, applied);
  const auto lines = std::count(large.message.begin(), large.message.end(), '\n');
  CHECK(lines <= 62);
  CHECK(large.message.find("… and 662 more files") != std::string::npos);
  CHECK(large.message.find("- … and 290 more\n") != std::string::npos);
  CHECK(
      large.message.ends_with("Engram-Rules: none\nEngram-Date: " + plan.today.to_string() + "\n"));
  CHECK(large.note.find("\"Claim 4999.\": episodic/e4999.md → semantic/s99.md") !=
        std::string::npos);
  CHECK(large.note.find("- semantic/d299.md\n") != std::string::npos);
}

TEST_CASE("the record's JSON text is nlohmann's, every member there, within the size it hints") {
  Plan plan;
  plan.rules = {"dedupe", "index"};
  plan.usage_logs = {"usage-1.jsonl 0a1b"};
  for (int i = 0; i < 200; ++i) {
    plan.record.push_back(Action{"dedupe", i % 2 == 0 ? "absorbed" : "duplicate",
                                 "- A \"quoted\" fact\twith é and \\ n°" + std::to_string(i),
                                 "episodic/e.md", "semantic/s.md", i % 3 == 0 ? "" : "factual"});
  }
  const auto old = std::make_shared<const std::string>("old");
  plan.changes.push_back({"semantic/s.md", std::string("h1"), old, std::string("new")});
  plan.changes.push_back({"episodic/e.md", std::string("h2"), old, std::nullopt});
  engram::engine::ApplyResult applied;
  applied.written = {"semantic/s.md"};
  applied.removed = {"episodic/e.md"};
  const engram::engine::ApplyResult* none = nullptr;
  for (const engram::engine::ApplyResult* with : {none, &std::as_const(applied)}) {
    const auto text = engram::engine::record_text(plan, with);
    const auto json = nlohmann::json::parse(text);
    CHECK(engram::json_text(json) == text);
    CHECK(engram::json_text(json, 2).size() <= engram::engine::record_size_hint(plan, 2));
    CHECK(text.size() <= engram::engine::record_size_hint(plan, -1));
    CHECK(json.at("actions").size() == 200);
    CHECK(json.at("actions")[0] ==
          nlohmann::json{{"rule", "dedupe"},
                         {"action", "absorbed"},
                         {"claim", "- A \"quoted\" fact\twith é and \\ n°0"},
                         {"source", "episodic/e.md"},
                         {"target", "semantic/s.md"},
                         {"reason", ""}});
    CHECK(json.at("changes") ==
          nlohmann::json::parse(R"([{"change":"modify","path":"semantic/s.md"},
                                                          {"change":"remove","path":"episodic/e.md"}])"));
    CHECK(json.at("rules") == nlohmann::json{"dedupe", "index"});
    CHECK(json.at("run") == "full");
    CHECK(json.contains("written") == (with != nullptr));
    if (with != nullptr) {
      CHECK(json.at("removed") == nlohmann::json{"episodic/e.md"});
      CHECK(json.at("deferred") == nlohmann::json::array());
    }
  }
}

TEST_CASE("the counted record has one line per rule and one per file, and quotes no claim") {
  Plan plan;
  plan.record = {
      Action{"episodic-decay", "absorbed", "- A fact.", "episodic/a.md", "semantic/b.md", ""},
      Action{"episodic-decay", "absorbed", "- More.", "episodic/c.md", "semantic/b.md", ""},
      Action{"episodic-decay", "decayed", "", "episodic/a.md", "", ""},
      Action{"index", "rebuilt", "", "", "MEMORY.md", ""},
  };
  CHECK(engram::engine::render_summary(plan) ==
        "by rule:\n"
        "  episodic-decay: 2 claims absorbed, 1 episodic "
        "decayed\n"
        "  index: 1 rebuilt\n"
        "by file:\n"
        "  semantic/b.md: 2 claims absorbed (from 2 files)\n"
        "  episodic/a.md: 1 episodic decayed\n"
        "  MEMORY.md: 1 rebuilt\n");
}
