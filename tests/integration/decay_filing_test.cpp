// Where episodic-decay files what it absorbs: into the section its episode's
// heading names, a solution's changed line through a superseded marker, new
// files with frontmatter taken from their source, and tasks and session
// metadata kept with their episode in archive/, never filed as knowledge.
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <string>

namespace fs = std::filesystem;
using engram::test::episodic_memory;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::semantic_memory;
using engram::test::write_file;

namespace {

constexpr const char* k_now = "2026-11-22";

// A store made by `engram init`, consolidated once after `fill` wrote its files.
template <typename Fill> fs::path consolidated(const Sandbox& sandbox, Fill fill) {
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  fill(store);
  const auto run = sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return store;
}

} // namespace

TEST_CASE("a claim is filed in the section its episode's heading names, not at the end") {
  const Sandbox sandbox;
  const auto store = consolidated(sandbox, [](const fs::path& s) {
    write_file(s / "semantic" / "shopify.md",
               semantic_memory({"shopify", "api"}, "2026-01-05",
                               "# Shopify\n\n## Rate limits\n\n- The bucket holds 40 requests.\n\n"
                               "## Webhooks\n\n- Webhooks retry for 48 hours.\n"));
    write_file(s / "episodic" / "2026-05-01-limits.md",
               episodic_memory({"shopify", "api"}, "2026-05-01", "2026-06-01",
                               "# Rate limits\n\nThe bucket leaks 2 requests per second.\n"));
  });
  const auto body = read_file(store / "semantic" / "shopify.md");
  const auto claim = body.find("The bucket leaks 2 requests per second.");
  REQUIRE(claim != std::string::npos);
  CHECK(claim < body.find("## Webhooks"));
  CHECK(claim > body.find("## Rate limits"));
}

TEST_CASE("a solution stated anew keeps its old line in a superseded marker") {
  const Sandbox sandbox;
  const auto store = consolidated(sandbox, [](const fs::path& s) {
    write_file(s / "procedural" / "feedback.md",
               "---\ntype: procedural\ntags: [feedback]\ncreated: 2026-01-05\n---\n"
               "## Solution: db-locked\n\n**Symptom:** database is locked\n"
               "**Solution:** retry the write\n");
    write_file(s / "episodic" / "2026-05-01-locks.md",
               episodic_memory({"sqlite"}, "2026-05-01", "2026-06-01",
                               "## Solution: db-locked\n\n**Symptom:** database is locked\n"
                               "**Solution:** enable WAL mode and a busy timeout\n"));
  });
  const auto body = read_file(store / "procedural" / "feedback.md");
  CHECK_THAT(body, Catch::Contains("**Solution:** enable WAL mode and a busy timeout\n"
                                   "<!-- superseded 2026-11-22: previously \"**Solution:** retry "
                                   "the write\" -->"));
  // One live Solution line, not two conflicting ones.
  std::size_t live = 0;
  for (auto at = body.find("\n**Solution:**"); at != std::string::npos;
       at = body.find("\n**Solution:**", at + 1)) {
    ++live;
  }
  CHECK(live == 1);
}

TEST_CASE("an update supersedes the live claim, not its words quoted in an older marker") {
  // The deploy timeout was superseded once and learned again: its words stand
  // in a marker and, later, as a live item. The update is of the live one.
  const std::string k_earlier =
      "<!-- superseded 2026-10-01: previously \"- The deploy timeout is 30 seconds.\" -->";
  const Sandbox sandbox;
  const auto store = consolidated(sandbox, [&](const fs::path& s) {
    write_file(s / "semantic" / "deploys.md",
               semantic_memory({"deploys"}, "2026-01-05",
                               "# Deploys\n\n- Deploys run from the release branch.\n  " +
                                   k_earlier + "\n- The deploy timeout is 30 seconds.\n"));
    write_file(s / "episodic" / "2026-05-01-deploys.md",
               episodic_memory({"deploys"}, "2026-05-01", "2026-06-01",
                               "# Deploys\n\nThe deploy timeout is 90 seconds.\n"));
  });
  const auto body = read_file(store / "semantic" / "deploys.md");
  INFO(body);
  CHECK_THAT(body,
             Catch::Contains("- Deploys run from the release branch.\n  " + k_earlier + "\n"));
  CHECK_THAT(body, Catch::Contains("- The deploy timeout is 90 seconds.\n  <!-- superseded "
                                   "2026-11-22: previously \"- The deploy timeout is 30 seconds.\" "
                                   "-->"));
  CHECK_THAT(body, !Catch::Contains("\" -->\" -->"));
  CHECK(body.find("\n- The deploy timeout is 30 seconds.") == std::string::npos);
}

TEST_CASE("a fact that restates or updates an instruction is filed where the instruction is") {
  // Whether "Replies can now be up to 400 words" is a fact or an
  // instruction is not in its words: the instruction it updates decides.
  const Sandbox sandbox;
  const auto store = consolidated(sandbox, [](const fs::path& s) {
    write_file(s / "procedural" / "feedback.md",
               "---\ntype: procedural\ntags: [feedback]\ncreated: 2026-01-05\n---\n"
               "## Replies\n\n- Keep replies under 200 words.\n\n"
               "## Uploads\n\n- Keep uploads under 25 MB.\n");
    write_file(s / "episodic" / "2026-05-01-limits.md",
               episodic_memory({"limits"}, "2026-05-01", "2026-06-01",
                               "# Limits\n\nReplies can now be up to 400 words.\n"
                               "Uploads can be up to 25 MB.\n"
                               "The API replies within 400 ms.\n"));
  });
  const auto feedback = read_file(store / "procedural" / "feedback.md");
  INFO(feedback);
  CHECK_THAT(feedback, Catch::Contains("- Replies can now be up to 400 words.\n  <!-- superseded "
                                       "2026-11-22: previously \"- Keep replies under 200 "
                                       "words.\" -->"));
  CHECK(feedback.find("\n- Keep replies under 200 words.") == std::string::npos);
  // Said already, in other words: not filed again, anywhere.
  CHECK_THAT(feedback, Catch::Contains("- Keep uploads under 25 MB.\n"));
  const auto all = sandbox.git(store, {"grep", "-l", "Uploads can be up to"});
  CHECK(all.out.empty());
  // A fact of another subject goes to semantic, as before.
  const auto facts = sandbox.git(
      store, {"grep", "-l", "The API replies within 400 ms.", "--", "semantic", "procedural"});
  CHECK_THAT(facts.out, Catch::StartsWith("semantic/") && !Catch::Contains("procedural/"));
}

TEST_CASE("a fact that says where a pointer's thing went is filed where the pointer is") {
  // "The design specs moved to Notion" reads as a fact, and "The design
  // specs live in Confluence" as where a thing is kept: the pointer decides.
  const Sandbox sandbox;
  const auto store = consolidated(sandbox, [](const fs::path& s) {
    write_file(s / "reference" / "design.md",
               "---\ntype: reference\ntags: [design]\ncreated: 2026-01-05\n---\n"
               "# Design\n\n- The design specs live in Confluence.\n"
               "- The brand assets are stored in Google Drive.\n");
    write_file(s / "episodic" / "2026-05-01-design.md",
               episodic_memory({"design"}, "2026-05-01", "2026-06-01",
                               "# Design\n\nThe design specs moved to Notion last month.\n"
                               "The brand assets are stored in Google Drive.\n"
                               "The design team meets on Tuesdays.\n"));
  });
  const auto pointers = read_file(store / "reference" / "design.md");
  INFO(pointers);
  CHECK_THAT(pointers, Catch::Contains("- The design specs moved to Notion last month.\n  <!-- "
                                       "superseded 2026-11-22: previously \"- The design specs "
                                       "live in Confluence.\" -->"));
  CHECK(pointers.find("\n- The design specs live in Confluence.") == std::string::npos);
  // Said already: not filed again, anywhere.
  const auto assets = sandbox.git(store, {"grep", "-c", "brand assets are stored"});
  CHECK(assets.out == "reference/design.md:1\n");
  // A fact of another subject goes to semantic, as before.
  const auto facts = sandbox.git(
      store, {"grep", "-l", "The design team meets on Tuesdays.", "--", "semantic", "reference"});
  CHECK_THAT(facts.out, Catch::StartsWith("semantic/") && !Catch::Contains("reference/"));
}

TEST_CASE("a new file's frontmatter comes from its episode, not a confirmed default") {
  const Sandbox sandbox;
  const auto store = consolidated(sandbox, [](const fs::path& s) {
    write_file(s / "episodic" / "2026-05-01-printer.md",
               episodic_memory({"office", "printer"}, "2026-05-01", "2026-06-01",
                               "# Printer\n\nThe office printer takes A4 paper only.\n"));
  });
  const auto created = read_file(store / "semantic" / "office-printer.md");
  CHECK_THAT(created, Catch::Contains("\nconfidence: medium\n"));
  CHECK_THAT(created, Catch::Contains("\nstatus: provisional\n"));
  CHECK_THAT(created, !Catch::Contains("status: confirmed"));
}

TEST_CASE("tasks and session metadata stay with their episode in archive/, never filed") {
  const Sandbox sandbox;
  const auto store = consolidated(sandbox, [](const fs::path& s) {
    write_file(s / "episodic" / "2026-05-01-session.md",
               episodic_memory({"quota", "api"}, "2026-05-01", "2026-06-01",
                               "# Session\n\n**Session ID**: 7f3a-22c1\n\n**Source**: telegram\n\n"
                               "TODO: check the quota next week\n\n"
                               "The API quota is 10,000 calls a day.\n"));
  });
  const auto archived = read_file(store / "archive" / "episodic" / "2026-05-01-session.md");
  CHECK_THAT(archived, Catch::Contains("TODO: check the quota next week"));
  CHECK_THAT(archived, Catch::Contains("**Session ID**: 7f3a-22c1"));
  const auto semantic = read_file(store / "semantic" / "api-quota.md");
  CHECK_THAT(semantic, Catch::Contains("The API quota is 10,000 calls a day."));
  CHECK_THAT(semantic, !Catch::Contains("TODO"));
  CHECK_THAT(semantic, !Catch::Contains("Session ID"));
  CHECK_FALSE(fs::exists(store / "episodic" / "2026-05-01-session.md"));
}

TEST_CASE("a day of log lines of one template, each about its own note, is filed line by line "
          "with none superseded") {
  // Log lines open with their stamp and differ in an id: each is a claim of
  // its own, whatever words they share ("Race note rw7x says the cache job
  // ran …" and "Race note rw8x says the cache job ran …").
  constexpr int k_lines = 1200;
  const char* things[] = {"cache", "deploy", "invoice", "login"};
  const char* kinds[] = {"job", "check", "task"};
  std::string body = "# Working memory moved out\n\n";
  for (int n = 0; n < k_lines; ++n) {
    body += "- 2026-05-01: Race note rw" + std::to_string(n) + "x says the " + things[n % 4] + " " +
            kinds[n % 3] + " ran " + (n % 2 == 0 ? "beside" : "after") + " the writer.\n";
  }
  const Sandbox sandbox;
  const auto store = consolidated(sandbox, [&](const fs::path& s) {
    write_file(s / "episodic" / "2026-05-01-working-memory.md",
               episodic_memory({"race"}, "2026-05-01", "2026-06-01", body));
  });
  std::string filed;
  for (const auto& entry : fs::recursive_directory_iterator(store)) {
    const auto relative = fs::relative(entry.path(), store).string();
    if (entry.is_regular_file() && entry.path().extension() == ".md" &&
        !relative.starts_with("archive/") && !relative.starts_with(".")) {
      filed += read_file(entry.path());
    }
  }
  CHECK_THAT(filed, !Catch::Contains("superseded"));
  int live = 0;
  for (int n = 0; n < k_lines; ++n) {
    live += filed.find("Race note rw" + std::to_string(n) + "x ") != std::string::npos ? 1 : 0;
  }
  CHECK(live == k_lines);
  CHECK_FALSE(fs::exists(store / "episodic" / "2026-05-01-working-memory.md"));
}
