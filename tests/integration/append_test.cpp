// `engram append`: the guarded write agents use. Below the guard the item goes
// into WORKING.md; at the guard it goes to today's episodic overflow file, a
// consolidation is requested, and the command still succeeds. No text is lost.
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <engram/text.hpp>
#include <fmt/format.h>

namespace fs = std::filesystem;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::write_file;

namespace {

constexpr const char* k_now = "2026-11-22";

// How many times `needle` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

// A store made by `engram init`, and a configuration with a small working guard.
struct SmallStore {
  fs::path store;
  fs::path config;
};

SmallStore small_store(const Sandbox& sandbox, int guard) {
  SmallStore made{sandbox.work("store"), sandbox.work("config.toml")};
  write_file(made.config, fmt::format("[guard]\nworking_chars = {}\nworking_target_chars = {}\n",
                                      guard, guard * 2 / 3));
  REQUIRE(
      sandbox.engram({"--config", made.config.string(), "init", made.store.string()}).exit_code ==
      0);
  return made;
}

// The overflow file of `k_now`.
fs::path overflow_file(const fs::path& store) {
  return store / "episodic" / (std::string(k_now) + "-working-memory.md");
}

} // namespace

TEST_CASE("below the guard an item is appended, dated, under its section of WORKING.md") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const std::string before = read_file(store / "WORKING.md");

  const auto result = sandbox.engram(
      {"append", "--store", store.string(), "--now", k_now, "Switched the sync to webhooks"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("WORKING.md"));
  const std::string after = read_file(store / "WORKING.md");
  CHECK(after == before + "\n## Now\n\n- 2026-11-22: Switched the sync to webhooks\n");

  const auto focused = sandbox.engram({"append", "--store", store.string(), "--now", k_now,
                                       "--section", "current focus", "Read", "the", "logs"});
  CHECK(focused.exit_code == 0);
  CHECK_THAT(
      read_file(store / "WORKING.md"),
      Catch::Contains("## Current focus\n\n- 2026-11-22: Read the logs\n\n## Active context"));
  CHECK_FALSE(fs::exists(overflow_file(store)));
}

TEST_CASE(
    "at the guard the text goes to the episodic overflow file and a consolidation is asked for") {
  const Sandbox sandbox;
  const auto [store, config] = small_store(sandbox, 500);
  const std::string working = read_file(store / "WORKING.md");
  const std::string text(300, 'w');
  REQUIRE(engram::text::count_chars(working) < 500);
  REQUIRE(engram::text::count_chars(working) + 300 > 500);

  const auto result = sandbox.engram(
      {"--config", config.string(), "append", "--store", store.string(), "--now", k_now, text});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("skipping append (await consolidation)"));
  CHECK_THAT(result.out, Catch::Contains("episodic/2026-11-22-working-memory.md"));
  CHECK(read_file(store / "WORKING.md") == working);
  const std::string overflow = read_file(overflow_file(store));
  CHECK(overflow.starts_with("---\ntype: episodic\ntags: [working-memory]\n"));
  CHECK_THAT(overflow, Catch::Contains("\ncreated: 2026-11-22\n"));
  CHECK_THAT(overflow, Catch::Contains("\nretention: temporary\n"));
  CHECK_THAT(overflow, Catch::Contains("\ndecay-after: 2027-02-20\n"));
  CHECK(overflow.ends_with("- 2026-11-22: " + text +
                           "\n  <!-- diverted from WORKING.md: ## Now -->\n"));
  CHECK(fs::exists(store / ".engram" / "consolidate-requested"));
  // engram's own state is never part of the store's history.
  CHECK_THAT(sandbox.git(store, {"status", "--porcelain"}).out, !Catch::Contains(".engram"));
  // The overflow file is a memory like any other.
  CHECK(sandbox.engram({"check", "--store", store.string()}).exit_code == 0);
}

TEST_CASE("repeated appends never lose text, at the guard or below it") {
  const Sandbox sandbox;
  const auto [store, config] = small_store(sandbox, 900);
  std::vector<std::string> texts;
  for (int i = 0; i < 30; ++i) {
    texts.push_back(
        fmt::format("note {:02}: the import batch {} finished with {} rows", i, i, 1000 + i * 37));
    if (i % 7 == 3) {
      texts.back() += "\nand a second line for note " + std::to_string(i);
    }
  }
  for (const auto& text : texts) {
    const auto result = sandbox.engram(
        {"--config", config.string(), "append", "--store", store.string(), "--now", k_now, text});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
  }
  const std::string working = read_file(store / "WORKING.md");
  const std::string overflow = read_file(overflow_file(store));
  CHECK(engram::text::count_chars(working) <= 900);
  for (const auto& text : texts) {
    // Continuation lines are indented so the text stays one list item.
    std::string item = "- 2026-11-22: " + text;
    for (auto at = item.find('\n'); at != std::string::npos; at = item.find('\n', at + 1)) {
      item.insert(at + 1, "  ");
    }
    INFO(item);
    CHECK(occurrences(working, item + "\n") + occurrences(overflow, item + "\n") == 1);
  }

  // And a consolidation after that keeps every text too.
  const auto consolidated = sandbox.engram(
      {"--config", config.string(), "consolidate", "--store", store.string(), "--now", k_now});
  INFO(consolidated.err);
  REQUIRE(consolidated.exit_code == 0);
  const std::string all = read_file(store / "WORKING.md") + read_file(overflow_file(store));
  for (const auto& text : texts) {
    CHECK(occurrences(all, text.substr(0, text.find('\n'))) == 1);
  }
}

TEST_CASE("append refuses empty text and a bad date") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const std::string before = read_file(store / "WORKING.md");
  CHECK(sandbox.engram({"append", "--store", store.string(), "  "}).exit_code == 2);
  CHECK(sandbox.engram({"append", "--store", store.string(), "--now", "soon", "x"}).exit_code == 2);
  CHECK(sandbox.engram({"append", "--store", store.string()}).exit_code == 2);
  CHECK(read_file(store / "WORKING.md") == before);
}

TEST_CASE("an unreadable WORKING.md is left alone and the text still kept") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const std::string broken = "---\ntype: working\n\n# no closing fence\n";
  write_file(store / "WORKING.md", broken);
  const auto result =
      sandbox.engram({"append", "--store", store.string(), "--now", k_now, "keep me"});
  CHECK(result.exit_code == 0);
  CHECK(read_file(store / "WORKING.md") == broken);
  CHECK_THAT(read_file(overflow_file(store)), Catch::Contains("- 2026-11-22: keep me\n"));
  CHECK_THAT(result.out, Catch::Contains("episodic/2026-11-22-working-memory.md"));
}

TEST_CASE("working memory never freezes: a diverted item is in WORKING.md after the next run") {
  // Just under the guard, every append is diverted; the run each one asks
  // for prunes WORKING.md to its target (though it is under its guard) and
  // puts the diverted item where it was meant, so none waits longer.
  const Sandbox sandbox;
  const auto [store, config] = small_store(sandbox, 600);
  const auto engram = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--config", config.string()});
    return sandbox.engram(args);
  };
  int diverted = 0;
  for (int i = 0; i < 200; ++i) {
    const auto text = fmt::format("step {:03}: checked the import batch {}", i, 4000 + i);
    const auto appended = engram({"append", "--store", store.string(), "--now", k_now, text});
    REQUIRE(appended.exit_code == 0);
    if (appended.out.find("instead of") == std::string::npos) {
      REQUIRE_THAT(read_file(store / "WORKING.md"), Catch::Contains(text));
      continue;
    }
    ++diverted;
    const auto run = engram({"consolidate", "--store", store.string(), "--now", k_now});
    INFO("append " << i << ": " << run.err);
    REQUIRE(run.exit_code == 0);
    const auto working = read_file(store / "WORKING.md");
    REQUIRE_THAT(working, Catch::Contains(text));
    REQUIRE(engram::text::count_chars(working) <= 600);
    for (const auto& entry : fs::directory_iterator(store / "episodic")) {
      REQUIRE_THAT(read_file(entry.path()), !Catch::Contains("diverted from WORKING.md"));
    }
  }
  CHECK(diverted > 10); // the guard was reached again and again
  // Every item is somewhere: WORKING.md or an episodic file.
  std::string everything = read_file(store / "WORKING.md");
  for (const auto& entry : fs::directory_iterator(store / "episodic")) {
    everything += read_file(entry.path());
  }
  for (int i = 0; i < 200; ++i) {
    CHECK_THAT(everything, Catch::Contains(fmt::format("step {:03}:", i)));
  }
}
