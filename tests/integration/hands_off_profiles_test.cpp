// Folders engram recognises and leaves alone: a Letta Code MemFS folder (its
// own git repository, which Letta syncs to the agent's memory blocks) and a
// basic-memory project (every Markdown file a note of its knowledge graph).
// `init`, `consolidate`, `check`, `append`, `recall` and the daemon say what
// they recognised and change nothing, not even a file of engram's own state;
// `status` and `discover` name the profile; a store configured as
// four-layer is kept, with its history outside the agent's repository.
#include "lib/agent_folders.hpp"
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// HOME as the sandbox sets it for engram.
fs::path home_of(const Sandbox& sandbox) {
  return sandbox.work().parent_path() / "home";
}

// Every file under `root` (its .git folder aside) with its bytes, and the
// folder's own git history and status when it has one: what must not change.
std::string everything_of(const Sandbox& sandbox, const fs::path& root) {
  std::string all;
  for (const auto& path : files_under(root)) {
    all += path + "\n" + read_file(root / path) + "\n";
  }
  if (fs::exists(root / ".git")) {
    all += git_out(sandbox, root, {"log", "--format=%H %s"});
    all += git_out(sandbox, root, {"status", "--porcelain", "--untracked-files=all"});
  }
  return all;
}

// Each command that would write, refused on `root` with the profile named,
// and the folder as it was.
void check_refused_everywhere(const Sandbox& sandbox, const fs::path& root,
                              const std::string& agent) {
  const auto before = everything_of(sandbox, root);
  const std::vector<std::vector<std::string>> commands{
      {"init", root.string()},
      {"consolidate", "--store", root.string(), "--now", k_now},
      {"consolidate", "--dry-run", "--store", root.string(), "--now", k_now},
      {"check", "--store", root.string()},
      {"append", "--store", root.string(), "a new item"},
      {"recall", "--store", root.string(), "deploys"},
  };
  for (const auto& command : commands) {
    INFO(command.front());
    const auto refused = sandbox.engram(command);
    CHECK(refused.exit_code != 0);
    CHECK_THAT(refused.err, Catch::Contains(agent + "'s memory folder") &&
                                Catch::Contains("engram changes nothing in it"));
    CHECK(everything_of(sandbox, root) == before);
  }
  // No history was made for it anywhere, inside or outside the folder.
  CHECK_FALSE(fs::exists(sandbox.work().parent_path() / "data/engram/history"));
}

} // namespace

TEST_CASE("a Letta Code memory folder is recognised and left exactly as it was") {
  const Sandbox sandbox;
  const fs::path root = home_of(sandbox) / ".letta/agents/agent-4f2a/memory";
  letta_memory(sandbox, root);
  check_refused_everywhere(sandbox, root, "Letta Code (MemFS)");

  const auto init = sandbox.engram({"init", root.string()});
  CHECK_THAT(init.err, Catch::Contains("system/ of 2 files with a `description`") &&
                           Catch::Contains("its own git repository") &&
                           Catch::Contains("nothing was created or changed"));
  const auto status =
      nlohmann::json::parse(ok(sandbox, {"status", "--store", root.string(), "--json"}).out);
  CHECK(status["profile"]["name"] == "letta");

  // The hook an agent runs gives no context and does not fail the agent.
  const fs::path start = sandbox.work("start.json");
  write_file(start, R"({"session_id":"s1","hook_event_name":"SessionStart","source":"startup"})");
  const auto hook = run({ENGRAM_BINARY, "hook", "session-start", "--store", root.string()},
                        sandbox.engram_environment(), start);
  CHECK(hook.exit_code == 0);
  CHECK(everything_of(sandbox, root).find(".engram") == std::string::npos);
}

TEST_CASE("a Letta folder outside Letta's home is known by its system/ files and sync state") {
  const Sandbox sandbox;
  const fs::path root = sandbox.work("copied-agent-memory");
  letta_memory(sandbox, root);
  const auto refused = sandbox.engram({"init", root.string()});
  CHECK(refused.exit_code != 0);
  CHECK_THAT(refused.err,
             Catch::Contains(".sync-state.json") && Catch::Contains("Letta Code (MemFS)"));
  CHECK_FALSE(fs::exists(root / ".engram"));
}

TEST_CASE("a basic-memory project is recognised and left exactly as it was") {
  const Sandbox sandbox;
  const fs::path root = basic_memory_project(sandbox);
  check_refused_everywhere(sandbox, root, "basic-memory");
  const auto init = sandbox.engram({"init", root.string()});
  CHECK_THAT(init.err, Catch::Contains("2 of 2 notes with a `permalink`, 2 with observation lines"));
}

TEST_CASE("a folder basic-memory's configuration names is its project, even with no note yet") {
  const Sandbox sandbox;
  const fs::path project = sandbox.work("work-notes");
  fs::create_directories(project);
  write_file(home_of(sandbox) / ".basic-memory/config.json",
             R"({"default_project": "work", "projects": {"work": ")" + project.string() +
                 R"("}})");
  const auto refused = sandbox.engram({"init", project.string()});
  CHECK(refused.exit_code != 0);
  CHECK_THAT(refused.err, Catch::Contains("a project in ~/.basic-memory/config.json"));
  CHECK(files_under(project).empty());
}

TEST_CASE("discover names Letta's agents and basic-memory's projects and --add leaves them out") {
  const Sandbox sandbox;
  const fs::path home = home_of(sandbox);
  const fs::path agent = home / ".letta/agents/agent-4f2a/memory";
  letta_memory(sandbox, agent);
  const fs::path notes = home / "basic-memory";
  write_file(notes / "first.md", "---\ntitle: First\npermalink: first\n---\n- [fact] one\n");

  const auto listed = nlohmann::json::parse(ok(sandbox, {"discover", "--json"}).out);
  REQUIRE(listed.size() == 2);
  CHECK(listed[0]["path"] == agent.string());
  CHECK(listed[0]["profile"] == "letta");
  CHECK(listed[0]["store"] == false); // Letta's own repository is no engram history
  CHECK(listed[0]["hands_off"].is_string());
  CHECK(listed[1]["path"] == notes.string());
  CHECK(listed[1]["profile"] == "basic-memory");
  CHECK(listed[1]["where"] == "a basic-memory project");

  const auto text = ok(sandbox, {"discover"}).out;
  CHECK_THAT(text, Catch::Contains("Letta Code's memory of an agent; profile letta") &&
                       Catch::Contains("engram changes nothing in it, because Letta syncs"));
  const auto added = ok(sandbox, {"discover", "--add"});
  CHECK_THAT(added.out, !Catch::Contains("added [[store]]"));
  CHECK_FALSE(fs::exists(sandbox.work().parent_path() / "config/engram/config.toml"));
}

TEST_CASE("the daemon keeps its other stores and refuses a Letta folder it was given") {
  const Sandbox sandbox;
  const auto kept = daemon_store(sandbox);
  const fs::path letta = sandbox.work("letta-agent/memory");
  letta_memory(sandbox, letta);
  const auto before = everything_of(sandbox, letta);
  DaemonProcess daemon(sandbox, kept.store, kept.config, {}, {letta});
  const auto reply = daemon.ask({{"request", "consolidate"}, {"kind", "full"}});
  CHECK(reply.value("ok", false));
  CHECK_THAT(daemon.log(), Catch::Contains("Letta Code (MemFS)'s memory folder") &&
                               Catch::Contains("engram changes nothing in it"));
  CHECK(daemon.stop() == 0);
  CHECK(everything_of(sandbox, letta) == before);
}

TEST_CASE("a Letta folder configured as four-layer is kept, its history outside Letta's "
          "repository") {
  const Sandbox sandbox;
  const fs::path root = sandbox.work("letta-agent/memory");
  letta_memory(sandbox, root);
  const auto letta_log = git_out(sandbox, root, {"log", "--format=%H %s"});
  const fs::path config = sandbox.work("engram.toml");
  write_file(config, "[[store]]\npath = \"" + root.string() + "\"\nprofile = \"four-layer\"\n");
  const auto init = ok(sandbox, {"--config", config.string(), "init", root.string()});
  CHECK_THAT(init.out, Catch::Contains("is not engram's"));
  ok(sandbox, {"--config", config.string(), "consolidate", "--store", root.string()});
  CHECK(git_out(sandbox, root, {"log", "--format=%H %s"}) == letta_log);
  const auto history = history_of_store(sandbox, root);
  CHECK(history.string().find(root.string()) == std::string::npos);
}
