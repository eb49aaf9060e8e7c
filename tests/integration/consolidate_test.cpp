// `engram consolidate` on real stores with real git: expired episodic files
// are absorbed claim by claim and removed in one commit whose message is the
// record; a second run changes nothing; --dry-run writes nothing at all.
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using engram::test::episodic_memory;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::semantic_memory;
using engram::test::snapshot_tree;
using engram::test::write_file;

namespace {

constexpr const char* k_now = "2026-11-22";

// A store made by `engram init`, with semantic, procedural and reference
// memories and two expired episodic files (and one that is not expired yet).
fs::path make_store(const Sandbox& sandbox, const std::string& name = "store") {
  const fs::path store = sandbox.work(name);
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  write_file(
      store / "semantic" / "shopify-api.md",
      semantic_memory({"shopify", "api", "pagination"}, "2026-03-12",
                      "# Shopify Admin API\n\n- The REST Admin API returns at most 250 items "
                      "per page.\n- Order webhooks are delivered at least once.\n"));
  write_file(store / "reference" / "systems.md",
             "---\ntype: reference\ntags: [shopify, dashboards]\nsalience: medium\n"
             "created: 2026-03-12\n---\n# Systems\n\n- The sync dashboard can be found at "
             "https://grafana.acme.example/d/order-sync.\n");
  write_file(store / "episodic" / "2026-05-04-order-sync.md",
             episodic_memory({"shopify", "api", "pagination", "sync"}, "2026-05-04", "2026-08-02",
                             "# Order sync timeouts\n\n"
                             "The nightly order sync timed out after 30 minutes.\n"
                             "Raising the page size brought the run down to 6 minutes.\n"
                             "Always pass `limit=250` when paging through Shopify orders.\n"
                             "The sync runbook can be found at https://wiki.acme.example/sync.\n"));
  write_file(store / "episodic" / "2026-06-10-webhooks.md",
             episodic_memory({"shopify", "webhooks"}, "2026-06-10", "",
                             "- Order webhooks are delivered at least once.\n"
                             "- Webhook deliveries time out after 5 seconds.\n"));
  write_file(
      store / "episodic" / "2026-11-20-recent.md",
      episodic_memory({"shopify"}, "2026-11-20", "", "- The staging shop was reset on Friday.\n"));
  return store;
}

// The whole text of every file of a layer folder, concatenated.
std::string layer_text(const fs::path& folder) {
  std::string all;
  if (!fs::is_directory(folder)) {
    return all;
  }
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file()) {
      all += read_file(entry.path());
    }
  }
  return all;
}

// The output of a git command that must succeed.
std::string git_out(const Sandbox& sandbox, const fs::path& store,
                    const std::vector<std::string>& args) {
  const auto result = sandbox.git(store, args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

} // namespace

TEST_CASE("expired episodic files are absorbed into the other layers and removed in one commit") {
  const Sandbox sandbox;
  const fs::path store = make_store(sandbox);
  const auto result = sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now});
  INFO(result.out);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);

  // Every claim is somewhere in the layers it belongs to.
  const std::string semantic = layer_text(store / "semantic");
  CHECK_THAT(semantic, Catch::Contains("The nightly order sync timed out after 30 minutes."));
  CHECK_THAT(semantic, Catch::Contains("Raising the page size brought the run down to 6 minutes."));
  CHECK_THAT(semantic, Catch::Contains("Webhook deliveries time out after 5 seconds."));
  CHECK_THAT(read_file(store / "procedural" / "feedback.md"),
             Catch::Contains("Always pass `limit=250` when paging through Shopify orders."));
  CHECK_THAT(layer_text(store / "reference"),
             Catch::Contains("The sync runbook can be found at https://wiki.acme.example/sync."));
  // The duplicate is not appended twice.
  const std::string duplicate = "Order webhooks are delivered at least once.";
  std::size_t copies = 0;
  for (auto at = semantic.find(duplicate); at != std::string::npos;
       at = semantic.find(duplicate, at + 1)) {
    ++copies;
  }
  CHECK(copies == 1);

  // The expired files are gone; the recent one stays.
  CHECK_FALSE(fs::exists(store / "episodic" / "2026-05-04-order-sync.md"));
  CHECK_FALSE(fs::exists(store / "episodic" / "2026-06-10-webhooks.md"));
  CHECK(fs::exists(store / "episodic" / "2026-11-20-recent.md"));

  // One snapshot of the agent's files, then one consolidation commit, on top of init.
  const auto subjects = git_out(sandbox, store, {"log", "--format=%s"});
  const auto first_line = subjects.substr(0, subjects.find('\n'));
  CHECK(first_line.starts_with("consolidate(full):"));
  CHECK_THAT(first_line, Catch::Contains("claims absorbed"));
  CHECK_THAT(first_line, Catch::Contains("2 episodic decayed"));
  CHECK(std::count(subjects.begin(), subjects.end(), '\n') == 3);

  const auto message = git_out(sandbox, store, {"log", "-1", "--notes=engram", "--format=%B%N"});
  CHECK_THAT(message, Catch::Contains("- episodic-decay absorbed \"The nightly order sync"));
  CHECK_THAT(message,
             Catch::Contains("- episodic-decay duplicate \"- Order webhooks are delivered"));
  CHECK_THAT(message,
             Catch::Contains("- episodic-decay decayed: episodic/2026-05-04-order-sync.md"));
  CHECK(git_out(sandbox, store,
                {"log", "-1", "--format=%(trailers:key=Engram-Run,valueonly,separator=)"}) ==
        "full\n");
  const auto rules =
      git_out(sandbox, store, {"log", "-1", "--format=%(trailers:key=Engram-Rules,valueonly)"});
  CHECK_THAT(rules, Catch::Contains("working-memory") && Catch::Contains("episodic-decay") &&
                        Catch::Contains("index"));

  // The commit is exactly what is on disk, and the repository is sound; git
  // reads the index engram wrote (version 4: paths prefix-compressed).
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}).empty());
  CHECK(git_out(sandbox, store, {"ls-files", "--", "episodic"}) ==
        "episodic/.gitkeep\nepisodic/2026-11-20-recent.md\n");
  {
    std::ifstream index(store / ".git" / "index", std::ios::binary);
    char header[8] = {};
    index.read(header, sizeof header);
    CHECK(std::string(header, 8) == std::string("DIRC\0\0\0\4", 8));
  }
  const auto fsck = sandbox.git(store, {"fsck", "--full", "--strict"});
  INFO(fsck.err);
  CHECK(fsck.exit_code == 0);
  CHECK_THAT(fsck.out + fsck.err, !Catch::Contains("error") && !Catch::Contains("broken"));
}

TEST_CASE("the commit message's trailers parse as git trailers") {
  const Sandbox sandbox;
  const fs::path store = make_store(sandbox);
  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now}).exit_code ==
          0);
  const fs::path message = sandbox.work("message.txt");
  write_file(message, git_out(sandbox, store, {"log", "-1", "--format=%B"}));
  const auto trailers =
      git_out(sandbox, store, {"interpret-trailers", "--parse", message.string()});
  CHECK_THAT(trailers, Catch::Contains("Engram-Run: full\n"));
  CHECK_THAT(trailers, Catch::Contains("Engram-Rules: "));
}

TEST_CASE("a second consolidation right after the first makes no commit") {
  const Sandbox sandbox;
  const fs::path store = make_store(sandbox);
  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now}).exit_code ==
          0);
  const auto head = git_out(sandbox, store, {"rev-parse", "HEAD"});
  const auto before = snapshot_tree(store);

  const auto again = sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now});
  INFO(again.out);
  INFO(again.err);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("nothing to consolidate"));
  CHECK(git_out(sandbox, store, {"rev-parse", "HEAD"}) == head);
  CHECK(snapshot_tree(store) == before);
}

TEST_CASE("the same store and clock give byte-identical plans, also from a copy") {
  const Sandbox sandbox;
  const fs::path store = make_store(sandbox);
  // Commit the agent's files so both copies start from the same history.
  REQUIRE(sandbox.git(store, {"add", "-A"}).exit_code == 0);
  REQUIRE(sandbox.git(store, {"commit", "-q", "-m", "agent"}).exit_code == 0);
  const fs::path copy = sandbox.work("copy");
  fs::copy(store, copy, fs::copy_options::recursive | fs::copy_options::copy_symlinks);

  const auto first =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now, "--dry-run"});
  const auto second =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now, "--dry-run"});
  const auto from_copy =
      sandbox.engram({"consolidate", "--store", copy.string(), "--now", k_now, "--dry-run"});
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.out, Catch::Contains("diff --git a/semantic/"));
  CHECK_THAT(first.out, Catch::Contains("--- a/episodic/2026-05-04-order-sync.md"));
  CHECK(second.out == first.out);
  CHECK(from_copy.out == first.out);
}

TEST_CASE("a dry run leaves every byte and mtime as it was and makes no commit") {
  const Sandbox sandbox;
  const fs::path store = make_store(sandbox);
  // Uncommitted agent files too: a dry run must not snapshot them either.
  const auto before = snapshot_tree(store);
  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now, "--dry-run"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("episodic-decay absorbed"));
  CHECK_THAT(result.out, Catch::Contains("+++ /dev/null"));
  // .git included: no object, ref or index was written.
  CHECK(snapshot_tree(store) == before);
  CHECK(git_out(sandbox, store, {"log", "--format=%s"}) == "init: create engram store\n");
}

TEST_CASE("consolidate --json prints the record with the commit ids") {
  const Sandbox sandbox;
  const fs::path store = make_store(sandbox);
  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now, "--json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto record = nlohmann::json::parse(result.out);
  CHECK(record["run"] == "full");
  CHECK(record["date"] == k_now);
  CHECK(record["dry_run"] == false);
  CHECK(record["commit"].get<std::string>() ==
        git_out(sandbox, store, {"rev-parse", "HEAD"}).substr(0, 40));
  CHECK(record["snapshot_commit"].get<std::string>() ==
        git_out(sandbox, store, {"rev-parse", "HEAD~1"}).substr(0, 40));
  CHECK(record["summary"].get<std::string>().starts_with("consolidate(full):"));
  bool decayed = false;
  for (const auto& action : record["actions"]) {
    for (const char* key : {"rule", "action", "claim", "source", "target", "reason"}) {
      CHECK(action.contains(key));
    }
    decayed = decayed || action["action"] == "decayed";
  }
  CHECK(decayed);
  INFO(record["removed"].dump());
  CHECK(record["removed"].size() == 2);
}

TEST_CASE("a lightweight consolidation rebuilds the index but decays nothing") {
  const Sandbox sandbox;
  const fs::path store = make_store(sandbox);
  const auto result = sandbox.engram(
      {"consolidate", "--store", store.string(), "--now", k_now, "--lightweight", "--json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto record = nlohmann::json::parse(result.out);
  CHECK(record["run"] == "lightweight");
  CHECK(fs::exists(store / "episodic" / "2026-05-04-order-sync.md"));
  CHECK(fs::exists(store / ".index.json"));
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%s"})
            .starts_with("consolidate(lightweight):"));
}

TEST_CASE("a folder that is not a store cannot be consolidated and says why") {
  const Sandbox sandbox;
  const fs::path folder = sandbox.work("plain");
  write_file(folder / "WORKING.md", "# Working\n");
  const auto result = sandbox.engram({"consolidate", "--store", folder.string()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("engram init"));
  const auto missing = sandbox.engram({"consolidate", "--store", sandbox.work("none").string()});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("no store"));
}

TEST_CASE("consolidate --now must be a date") {
  const Sandbox sandbox;
  const fs::path store = make_store(sandbox);
  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", "next tuesday"});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("YYYY-MM-DD"));
}
