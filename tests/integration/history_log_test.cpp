// `engram log` and `engram show` with the real binary, read against the real
// git: the same commits, the same order, the record rendered from the commit;
// and `git log --grep`, trailers and `git blame` lead to the consolidation.
#include "lib/history.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// A store after one consolidation: init, the agent's snapshot, the consolidation.
fs::path consolidated_store(const Sandbox& sandbox) {
  const fs::path store = make_history_store(sandbox);
  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  return store;
}

// Runs engram, which must succeed, and parses its stdout as JSON.
nlohmann::json engram_json(const Sandbox& sandbox, const std::vector<std::string>& args) {
  const auto result = sandbox.engram(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(result.out);
}

} // namespace

TEST_CASE("engram log lists the commits git log lists, newest first, with summaries and counts") {
  const Sandbox sandbox;
  const fs::path store = consolidated_store(sandbox);
  const auto log = engram_json(sandbox, {"log", "--store", store.string(), "--json"});
  const auto ids = git_lines(sandbox, store, {"log", "--format=%H"});
  const auto subjects = git_lines(sandbox, store, {"log", "--format=%s"});
  REQUIRE(log.size() == 3);
  REQUIRE(ids.size() == 3);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    INFO(i);
    CHECK(log[i]["commit"] == ids[i]);
    CHECK(log[i]["summary"] == subjects[i]);
    const auto files =
        git_lines(sandbox, store, {"show", "--no-renames", "--format=", "--name-only", ids[i]});
    CHECK(log[i]["files_changed"] == files.size());
  }
  CHECK(log[0]["run"] == "full");
  CHECK(log[1]["run"] == "snapshot");
  CHECK(log[1]["author"]["name"] == "agent");
  CHECK(log[1]["committer"]["name"] == "engram");
  CHECK(log[2]["run"] == "init");
  // Insertions and deletions as git counts them.
  const auto numstat =
      git_lines(sandbox, store, {"show", "--no-renames", "--format=", "--numstat", ids[0]});
  std::size_t added = 0;
  std::size_t removed = 0;
  for (const auto& line : numstat) {
    added += std::stoul(line.substr(0, line.find('\t')));
    removed += std::stoul(line.substr(line.find('\t') + 1));
  }
  CHECK(log[0]["insertions"] == added);
  CHECK(log[0]["deletions"] == removed);

  // -n limits; text mode prints one line a commit, with the short id and the summary.
  CHECK(engram_json(sandbox, {"log", "--store", store.string(), "--json", "-n", "1"}).size() == 1);
  const auto text = sandbox.engram({"log", "--store", store.string()});
  REQUIRE(text.exit_code == 0);
  const auto lines = text.out_lines();
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].starts_with(ids[0].substr(0, 12) + " "));
  CHECK_THAT(lines[0], Catch::Contains(subjects[0]));
  CHECK_THAT(lines[1], Catch::Contains("snapshot: 5 files changed by the agent"));
}

TEST_CASE("engram show renders a consolidation's record from its commit, with its files") {
  const Sandbox sandbox;
  const fs::path store = consolidated_store(sandbox);
  const auto shown = engram_json(sandbox, {"show", "--store", store.string(), "--json", "HEAD"});
  CHECK(shown["commit"] == head_of(sandbox, store));
  CHECK(shown["message"] == git_out(sandbox, store, {"log", "-1", "--format=%B"})
                                .substr(0, shown["message"].get<std::string>().size()));
  CHECK(shown["trailers"]["Engram-Run"] == "full");
  CHECK(shown["trailers"]["Engram-Date"] == k_history_now);
  bool absorbed = false;
  for (const auto& action : shown["actions"]) {
    absorbed = absorbed || action.get<std::string>().starts_with(
                               "episodic-decay absorbed \"The nightly order sync");
  }
  CHECK(absorbed);
  std::vector<std::string> files;
  for (const auto& file : shown["files"]) {
    const std::string change = file["change"];
    files.push_back(std::string(1, static_cast<char>(std::toupper(change[0]))) + "\t" +
                    file["path"].get<std::string>());
  }
  CHECK(files ==
        git_lines(sandbox, store, {"show", "--no-renames", "--format=", "--name-status", "HEAD"}));

  const auto text = sandbox.engram({"show", "--store", store.string(), "HEAD~1"});
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out,
             Catch::Contains("commit " + git_lines(sandbox, store, {"rev-parse", "HEAD~1"})[0]));
  CHECK_THAT(text.out, Catch::Contains("Author:    agent <agent@"));
  CHECK_THAT(text.out, Catch::Contains("snapshot: 5 files changed by the agent"));
  CHECK_THAT(text.out, Catch::Contains("added     episodic/2026-05-04-order-sync.md"));
}

TEST_CASE("show of a name that is no commit fails and says so") {
  const Sandbox sandbox;
  const fs::path store = consolidated_store(sandbox);
  const auto result = sandbox.engram({"show", "--store", store.string(), "no-such-rev"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("no-such-rev names no commit"));
}

TEST_CASE("git log --grep, trailers and git blame lead to the consolidation that wrote a line") {
  const Sandbox sandbox;
  const fs::path store = consolidated_store(sandbox);
  const std::string consolidation = head_of(sandbox, store);
  CHECK(git_out(sandbox, store, {"log", "--format=%H", "--grep", "^Engram-Run: full$"}) ==
        consolidation + "\n");
  // A claim is in the consolidation's note, which --grep searches with --notes.
  CHECK(git_out(sandbox, store,
                {"log", "--notes=engram", "--format=%H", "--grep",
                 "Webhook deliveries time out"}) == consolidation + "\n");

  // The line the consolidation absorbed blames to it; the agent's line to the snapshot.
  const auto blame = git_lines(sandbox, store, {"blame", "-l", "-s", "semantic/shopify-api.md"});
  bool absorbed_found = false;
  bool agent_found = false;
  for (const auto& line : blame) {
    if (line.find("The nightly order sync timed out after 30 minutes.") != std::string::npos) {
      CHECK(line.substr(0, 40) == consolidation);
      absorbed_found = true;
    }
    if (line.find("The REST Admin API returns at most 250") != std::string::npos) {
      CHECK(line.substr(0, 40) == git_lines(sandbox, store, {"rev-parse", "HEAD~1"})[0]);
      agent_found = true;
    }
  }
  CHECK(absorbed_found);
  CHECK(agent_found);
}
