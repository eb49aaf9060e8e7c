// `engram status`: per-layer counts, guards in code points, lines and Deep Truths,
// episodic files waiting to decay (with --now), as a table and as JSON.
#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using engram::test::Sandbox;
using engram::test::snapshot_tree;
using engram::test::write_file;

namespace {

// An episodic memory with the given frontmatter lines.
std::string episodic(const std::string& dates) {
  return "---\ntype: episodic\ntags: [deploy, staging]\n" + dates + "---\nWe deployed.\n";
}

// A store made by `engram init`, then filled with known files.
struct StatusStore {
  Sandbox sandbox;
  fs::path root = sandbox.work("store");

  StatusStore() {
    REQUIRE(sandbox.engram({"init", root.string()}).exit_code == 0);
    write_file(root / "semantic" / "a.md", "---\ntype: semantic\ntags: [a, b]\n---\nA.\n");
    write_file(root / "semantic" / "b.md", "---\ntype: semantic\ntags: [b, c]\n---\nB.\n");
    write_file(root / "reference" / "docs.md", "---\ntype: reference\n---\nDocs are at X.\n");
    // Decays on 2026-04-10 by its own date.
    write_file(root / "episodic" / "2026-01-10-old.md",
               episodic("created: 2026-01-10\ndecay-after: 2026-04-10\n"));
    // No decay-after: created + 90 days = 2026-08-30.
    write_file(root / "episodic" / "2026-06-01-new.md", episodic("created: 2026-06-01\n"));
  }

  // `engram status --json` parsed, at the given --now.
  nlohmann::json json(const std::string& now) const {
    const auto result =
        sandbox.engram({"status", "--store", root.string(), "--json", "--now", now});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(result.out);
  }
};

} // namespace

TEST_CASE("status --json counts files and bytes per layer") {
  const StatusStore store;
  const auto json = store.json("2026-05-01");
  CHECK(json["store"] == store.root.string());
  CHECK(json["today"] == "2026-05-01");
  const auto& layers = json["layers"];
  for (const char* layer :
       {"index", "working", "core", "episodic", "semantic", "procedural", "reference", "archive"}) {
    INFO(layer);
    CHECK(layers.contains(layer));
  }
  CHECK(layers["semantic"]["files"] == 2);
  CHECK(layers["semantic"]["bytes"] == fs::file_size(store.root / "semantic" / "a.md") +
                                           fs::file_size(store.root / "semantic" / "b.md"));
  CHECK(layers["episodic"]["files"] == 2);
  CHECK(layers["reference"]["files"] == 1);
  CHECK(layers["working"]["files"] == 1);
  CHECK(layers["index"]["files"] == 1);
  CHECK(layers["procedural"]["files"] == 0);
  CHECK(json["total"]["files"] == 7);
  CHECK(json["diagnostics"]["count"] == 0);
}

TEST_CASE("status --now counts the episodic files whose decay date has passed") {
  const StatusStore store;
  CHECK(store.json("2026-01-01")["expired"]["count"] == 0);
  const auto may = store.json("2026-05-01")["expired"];
  CHECK(may["count"] == 1);
  CHECK(may["files"] == nlohmann::json::array({"episodic/2026-01-10-old.md"}));
  CHECK(may["retention_days"] == 90);
  CHECK(store.json("2026-08-30")["expired"]["count"] == 1); // decays *after* its day
  CHECK(store.json("2026-08-31")["expired"]["count"] == 2);
}

TEST_CASE("status measures WORKING.md in code points against its 3000-character guard") {
  const StatusStore store;
  const std::string head = "---\ntype: working\n---\n"; // 22 chars
  std::string accents;
  for (int i = 0; i < 2000; ++i) {
    accents += "\xc3\xa9"; // é: two bytes, one code point
  }
  write_file(store.root / "WORKING.md", head + accents + "\n");
  auto working = store.json("2026-05-01")["guards"]["working"];
  CHECK(working["path"] == "WORKING.md");
  CHECK(working["unit"] == "chars");
  CHECK(working["size"] == 2023); // 4,023 bytes, but only 2,023 characters
  CHECK(working["limit"] == 3000);
  CHECK(working["over"] == false);

  write_file(store.root / "WORKING.md", head + std::string(3100, 'x') + "\n");
  working = store.json("2026-05-01")["guards"]["working"];
  CHECK(working["size"] == 3123);
  CHECK(working["over"] == true);

  const auto text =
      store.sandbox.engram({"status", "--store", store.root.string(), "--now", "2026-05-01"});
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("OVER"));
  CHECK_THAT(text.out, Catch::Contains("3123 chars"));
}

TEST_CASE("status measures MEMORY.md in lines against its guard") {
  const StatusStore store;
  std::string lines;
  for (int i = 0; i < 250; ++i) {
    lines += "- line " + std::to_string(i) + "\n";
  }
  write_file(store.root / "MEMORY.md", lines);
  const auto index = store.json("2026-05-01")["guards"]["memory_index"];
  CHECK(index["path"] == "MEMORY.md");
  CHECK(index["unit"] == "lines");
  CHECK(index["size"] == 250);
  CHECK(index["limit"] == 200);
  CHECK(index["over"] == true);
}

TEST_CASE("status prints a table of layers, guards, expired files and diagnostics") {
  const StatusStore store;
  write_file(store.root / "semantic" / "broken.md", "---\ntype: semantic\n");
  const auto before = snapshot_tree(store.root);
  const auto result =
      store.sandbox.engram({"status", "--store", store.root.string(), "--now", "2026-05-01"});
  CHECK(result.exit_code == 0);
  for (const char* word : {"semantic", "episodic", "WORKING.md", "MEMORY.md", "3000", "ok",
                           "episodic/2026-01-10-old.md", "diagnostics: 1"}) {
    INFO(word);
    CHECK_THAT(result.out, Catch::Contains(word));
  }
  CHECK_THAT(result.out, !Catch::Contains("OVER"));
  CHECK(snapshot_tree(store.root) == before);
}

TEST_CASE("status reads its guards from the configuration") {
  const StatusStore store;
  const fs::path config = store.sandbox.work("tight.toml");
  write_file(config, "[guard]\nworking_chars = 100\nworking_target_chars = 50\n\n"
                     "[decay]\nretention_days = 10\n");
  const auto result = store.sandbox.engram({"--config", config.string(), "status", "--store",
                                            store.root.string(), "--json", "--now", "2026-06-20"});
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["guards"]["working"]["limit"] == 100);
  CHECK(json["expired"]["retention_days"] == 10);
  CHECK(json["expired"]["count"] == 2); // 2026-06-01 + 10 days has passed
}

TEST_CASE("status measures CORE.md in Deep Truths and core-block characters against its guards") {
  const StatusStore store;
  // As the promotion rule renders it, but with more than it would ever write:
  // 12 truths (the guard is 10) and a block of 30 lines of 80 characters.
  std::string core = "# Core memory\n\nGenerated by engram.\n\n## Deep Truths\n\n";
  for (int i = 0; i < 12; ++i) {
    core += "- Truth number " + std::to_string(i) + ".\n  <!-- evidence: 3 sessions -->\n";
  }
  core += "\n1 more proven claim is over the limit of 10 Deep Truths:\n"
          "<!-- held back: - not an item -->\n<!-- evidence:\n  - spread over lines -->\n\n"
          "## user_profile\n\n";
  for (int i = 0; i < 30; ++i) {
    core += "- " + std::string(77, 'x') + "\n"; // 80 characters with its newline
  }
  write_file(store.root / "CORE.md", core);
  const auto guards = store.json("2026-05-01")["guards"];
  INFO(guards.dump());
  CHECK(guards["core_truths"]["path"] == "CORE.md");
  CHECK(guards["core_truths"]["unit"] == "truths");
  CHECK(guards["core_truths"]["size"] == 12);
  CHECK(guards["core_truths"]["limit"] == 10);
  CHECK(guards["core_truths"]["over"] == true);
  CHECK(guards["core_blocks"]["unit"] == "chars");
  CHECK(guards["core_blocks"]["size"] == 30 * 80);
  CHECK(guards["core_blocks"]["limit"] == 2000);
  CHECK(guards["core_blocks"]["over"] == true);

  // What the rule writes is within them, and the table says so.
  const auto consolidated = store.sandbox.engram(
      {"consolidate", "--store", store.root.string(), "--now", "2026-05-01"});
  INFO(consolidated.err);
  REQUIRE(consolidated.exit_code == 0);
  const auto after = store.json("2026-05-01")["guards"];
  CHECK(after["core_truths"]["over"] == false);
  CHECK(after["core_blocks"]["over"] == false);
  const auto text =
      store.sandbox.engram({"status", "--store", store.root.string(), "--now", "2026-05-01"});
  CHECK_THAT(text.out, Catch::Contains("CORE.md") && Catch::Contains("truths") &&
                           !Catch::Contains("OVER"));
}
