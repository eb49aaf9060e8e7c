// A Claude Code memory folder kept in Claude Code's conventions: its topic
// files are memories in the layer their `type` names, MEMORY.md stays a list
// of pointer lines that gains one for each memory it does not link, within
// what Claude Code loads (the first 200 lines, 25 KB), and a reader that
// loads the folder the way Claude Code does finds every memory, before and
// after. Recall and the hooks find the topic files.
#include "lib/agent_folders.hpp"
#include "lib/history.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// What Claude Code reaches from MEMORY.md: the first 200 lines of it, within
// 25 KB, and the files those lines link, followed one link further (a
// topic file that indexes more, as the overflow file does).
std::set<std::string> claude_code_reaches(const fs::path& root) {
  const auto links_of = [](const std::string& text) {
    std::set<std::string> found;
    static const std::regex link(R"(\]\(([^)\s]+\.md)\))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link);
         it != std::sregex_iterator(); ++it) {
      found.insert((*it)[1].str());
    }
    return found;
  };
  std::istringstream in(read_file(root / "MEMORY.md"));
  std::string loaded;
  std::string line;
  for (int n = 0; n < 200 && std::getline(in, line) && loaded.size() + line.size() + 1 <= 25600;
       ++n) {
    loaded += line + "\n";
  }
  std::set<std::string> reached;
  for (const auto& target : links_of(loaded)) {
    if (fs::is_regular_file(root / target)) {
      reached.insert(target);
      for (const auto& further : links_of(read_file(root / target))) {
        if (fs::is_regular_file(root / further)) {
          reached.insert(further);
        }
      }
    }
  }
  return reached;
}

// The memory files of a layer as `engram status --json` counts them.
std::int64_t layer_files(const Sandbox& sandbox, const fs::path& root, const char* layer) {
  const auto status =
      nlohmann::json::parse(ok(sandbox, {"status", "--store", root.string(), "--json"}).out);
  return status["layers"][layer]["files"].get<std::int64_t>();
}

// Six reference notes about different things.
const char* const k_tools[] = {
    "The on-call runbook is at https://wiki.example/runbook.\n",
    "Grafana dashboards for billing: https://grafana.example/d/billing.\n",
    "Release checklists live in the ops repository under docs/release.\n",
    "The VPN profile is downloaded from https://vpn.example/profile.\n",
    "Sentry errors for the mobile app: https://sentry.example/mobile.\n",
    "Terraform state sits in the s3 bucket infra-state-prod.\n"};

// A topic file in Claude Code's form.
std::string topic(const std::string& name, const std::string& description, const std::string& type,
                  const std::string& body) {
  return "---\nname: " + name + "\ndescription: " + description + "\ntype: " + type + "\n---\n" +
         body;
}

} // namespace

TEST_CASE("Claude Code's topic files are memories in the layer their type names") {
  const Sandbox sandbox;
  const auto root = claude_code_folder(sandbox);
  ok(sandbox, {"init", root.string()});
  CHECK(layer_files(sandbox, root, "semantic") == 2);   // user, project
  CHECK(layer_files(sandbox, root, "procedural") == 1); // feedback
  CHECK(layer_files(sandbox, root, "reference") == 1);  // reference
  const auto check = ok(sandbox, {"check", "--store", root.string()});
  CHECK_THAT(check.out + check.err,
             Catch::Contains("6 memory files checked")); // + MEMORY.md, WORKING.md

  // A consolidation lists them in .index.json, and recall finds them there.
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  const auto index = read_file(root / ".index.json");
  for (const auto* name :
       {"user_role.md", "feedback_testing.md", "project_freeze.md", "reference_dashboards.md"}) {
    CHECK_THAT(index, Catch::Contains(std::string("\"") + name + "\""));
  }
  const auto recalled =
      nlohmann::json::parse(ok(sandbox, {"recall", "--store", root.string(), "--json", "--now",
                                         k_now, "real", "database", "integration", "tests"})
                                .out);
  std::vector<std::string> paths;
  for (const auto& memory : recalled["memories"]) {
    paths.push_back(memory["path"].get<std::string>());
  }
  CHECK(std::find(paths.begin(), paths.end(), "feedback_testing.md") != paths.end());
}

TEST_CASE("a memory MEMORY.md does not link gets a pointer line, and the agent's lines stay") {
  const Sandbox sandbox;
  const auto root = claude_code_folder(sandbox);
  ok(sandbox, {"init", root.string()});
  const auto before = read_file(root / "MEMORY.md");
  // The agent wrote a topic file and forgot its line; a fact reached engram's folder.
  write_file(root / "project_deploys.md", topic("Deploys", "deploys go out on Tuesdays", "project",
                                                "Deploys go out on Tuesdays after the standup.\n"));
  write_file(root / "semantic" / "postgres.md",
             "---\ntype: semantic\ntags: [postgres]\ncreated: 2026-11-01\n---\n"
             "# Postgres\n\nThe staging database is Postgres 16.\n");
  const auto run =
      ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now, "--verbose"});
  const auto after = read_file(root / "MEMORY.md");
  CHECK(after.starts_with(before)); // every agent line as it was, in place
  CHECK_THAT(after,
             Catch::Contains("- [Deploys](project_deploys.md) — deploys go out on Tuesdays\n"));
  // A file without a description is named by its tags, not by a claim that may be superseded.
  CHECK_THAT(after, Catch::Contains("- [postgres](semantic/postgres.md) — postgres\n"));
  CHECK_THAT(run.out, Catch::Contains("linked"));
  CHECK(claude_code_reaches(root).size() == 6);
  check_sound(sandbox, root);

  // Linked once: the next run leaves it as it is (the sandbox checks the
  // dry run after each consolidation too).
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  CHECK(read_file(root / "MEMORY.md") == after);
}

TEST_CASE("past what Claude Code loads, pointer lines go to a linked overflow file") {
  const Sandbox sandbox;
  const auto root = claude_code_folder(sandbox);
  // An index near the 200 lines Claude Code loads, every line the agent's
  // (the files of its older lines are gone: their lines stay as written).
  std::string index = read_file(root / "MEMORY.md");
  for (int i = 0; i < 194; ++i) {
    index += "- [Note " + std::to_string(i) + "](project_note_" + std::to_string(i) +
             ".md) — note number " + std::to_string(i) + "\n";
  }
  write_file(root / "MEMORY.md", index);
  ok(sandbox, {"init", root.string()});
  for (int i = 0; i < 6; ++i) {
    const auto name = "reference_tool_" + std::to_string(i) + ".md";
    write_file(root / name,
               topic("Tool " + std::to_string(i), "where tool " + std::to_string(i) + " lives",
                     "reference", k_tools[i]));
  }
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  const auto after = read_file(root / "MEMORY.md");
  std::size_t lines = 0;
  for (char c : after) {
    lines += c == '\n' ? 1 : 0;
  }
  CHECK(lines <= 200);
  CHECK(after.size() <= 25600);
  CHECK(after.starts_with(index)); // the agent's 198 lines, as written
  CHECK_THAT(after, Catch::Contains("](memory_overflow.md)"));
  const auto overflow = read_file(root / "memory_overflow.md");
  CHECK_THAT(overflow, Catch::Contains("type: index")); // links, not claims to judge
  // Every topic file is reachable the way Claude Code reads the folder.
  const auto reached = claude_code_reaches(root);
  for (int i = 0; i < 6; ++i) {
    INFO(i);
    CHECK(reached.contains("reference_tool_" + std::to_string(i) + ".md"));
  }
  CHECK(reached.contains("user_role.md"));
  check_sound(sandbox, root);
}

TEST_CASE("a duplicate topic file merged away leaves the agent's line linking where it went") {
  const Sandbox sandbox;
  const auto root = claude_code_folder(sandbox);
  const std::string fact =
      "No non-critical merges after Thursday: the mobile release branch is cut.\n";
  write_file(root / "project_release_freeze.md",
             topic("Release freeze", "the Thursday freeze", "project", fact));
  write_file(root / "MEMORY.md", read_file(root / "MEMORY.md") +
                                     "- [Release freeze](project_release_freeze.md) — the "
                                     "Thursday freeze\n");
  ok(sandbox, {"init", root.string()});
  const auto run =
      ok(sandbox, {"consolidate", "--store", root.string(), "--now", "2027-03-01", "--verbose"});
  CHECK_THAT(run.out, Catch::Contains("dedupe merged"));
  CHECK_THAT(run.out, Catch::Contains("dedupe mended: MEMORY.md"));
  CHECK(fs::exists(root / "project_freeze.md") != fs::exists(root / "project_release_freeze.md"));
  const auto after = read_file(root / "MEMORY.md");
  // Both lines as the agent wrote them, each naming a file that exists.
  CHECK_THAT(after, Catch::Contains("— no merges after Thursday\n"));
  CHECK_THAT(after, Catch::Contains("— the Thursday freeze\n"));
  std::istringstream in(after);
  std::string line;
  static const std::regex link(R"(\]\(([^)\s]+\.md)\))");
  while (std::getline(in, line)) {
    std::smatch found;
    if (std::regex_search(line, found, link)) {
      INFO(line);
      CHECK(fs::exists(root / found[1].str()));
    }
  }
  CHECK(claude_code_reaches(root).size() == 4);
  check_sound(sandbox, root);
}

TEST_CASE("the session-start hook leaves MEMORY.md to Claude Code, and the prompt hook finds "
          "topic files") {
  const Sandbox sandbox;
  const auto root = claude_code_folder(sandbox);
  ok(sandbox, {"init", root.string()});
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  const fs::path start = sandbox.work("start.json");
  write_file(start, R"({"session_id":"s1","hook_event_name":"SessionStart","source":"startup"})");
  const auto started =
      run({ENGRAM_BINARY, "hook", "session-start", "--store", root.string(), "--now", k_now},
          sandbox.engram_environment(), start);
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  CHECK_THAT(started.out, !Catch::Contains("(user_role.md)")); // Claude Code loads MEMORY.md itself

  const fs::path prompt = sandbox.work("prompt.json");
  write_file(prompt, R"({"session_id":"s1","hook_event_name":"UserPromptSubmit",)"
                     R"("prompt":"Should the integration tests mock the database?"})");
  const auto asked =
      run({ENGRAM_BINARY, "hook", "user-prompt-submit", "--store", root.string(), "--now", k_now},
          sandbox.engram_environment(), prompt);
  INFO(asked.out << asked.err);
  REQUIRE(asked.exit_code == 0);
  CHECK_THAT(asked.out, Catch::Contains("real database"));
}

TEST_CASE("decay files an episode's knowledge into topic files named as Claude Code names them") {
  const Sandbox sandbox;
  const auto root = claude_code_folder(sandbox);
  ok(sandbox, {"init", root.string()});
  write_file(root / "episodic" / "2026-08-01-deploys.md",
             "---\ntype: episodic\ntags: [deploy, release]\ncreated: 2026-08-01\n---\n"
             "# Deploy day\n\n"
             "- The release pipeline takes 40 minutes from merge to production.\n"
             "- Always tag the release commit before deploying.\n");
  const auto before = read_file(root / "MEMORY.md");
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  const auto project = read_file(root / "project_deploy_release.md");
  CHECK_THAT(project, Catch::StartsWith("---\nname: Knowledge on deploy, release\n"
                                        "description: knowledge on deploy, release, filed by "
                                        "engram from session notes\ntype: project\n"));
  CHECK_THAT(project, Catch::Contains("The release pipeline takes 40 minutes"));
  const auto feedback = read_file(root / "feedback_deploy_release.md");
  CHECK_THAT(feedback, Catch::Contains("type: feedback\n"));
  CHECK_THAT(feedback, Catch::Contains("Always tag the release commit before deploying."));
  CHECK_FALSE(fs::exists(root / "semantic" / "deploy-release.md"));
  // Both are linked from MEMORY.md, after the agent's lines as they were.
  const auto after = read_file(root / "MEMORY.md");
  CHECK(after.starts_with(before));
  CHECK_THAT(after, Catch::Contains("](project_deploy_release.md) — knowledge on deploy, release"));
  CHECK_THAT(after, Catch::Contains("](feedback_deploy_release.md) — feedback on deploy, release"));
  CHECK(layer_files(sandbox, root, "procedural") == 2);
  CHECK(claude_code_reaches(root).size() == 6);
  check_sound(sandbox, root);
}

TEST_CASE("a claim about the subject of an agent's topic file is filed in that file") {
  const Sandbox sandbox;
  const auto root = claude_code_folder(sandbox);
  write_file(root / "project_branch.md",
             topic("Branch cut", "when the mobile branch is cut", "project",
                   "The mobile release branch is cut on Thursday.\n"));
  write_file(root / "MEMORY.md", read_file(root / "MEMORY.md") +
                                     "- [Branch cut](project_branch.md) — when it is cut\n");
  ok(sandbox, {"init", root.string()});
  write_file(root / "episodic" / "2026-08-01-release.md",
             "---\ntype: episodic\ntags: [mobile, release]\ncreated: 2026-08-01\n---\n"
             "# Release planning\n\n- The mobile release branch is cut on Wednesday.\n");
  const auto run =
      ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now, "--verbose"});
  const auto after = read_file(root / "project_branch.md");
  CHECK_THAT(after, Catch::StartsWith("---\nname: Branch cut\n"));
  CHECK_THAT(after, Catch::Contains("The mobile release branch is cut on Wednesday."));
  CHECK_THAT(after,
             Catch::Contains("previously \"The mobile release branch is cut on Thursday.\""));
  CHECK_FALSE(fs::exists(root / "project_mobile_release.md"));
  CHECK_THAT(run.out, Catch::Contains("→ project_branch.md"));
  check_sound(sandbox, root);
}

TEST_CASE("a feedback rule a session updates keeps its paragraph form, its Why and How to apply") {
  const Sandbox sandbox;
  const auto root = claude_code_folder(sandbox);
  write_file(root / "feedback_testing.md",
             topic("Testing rules", "how to run tests before commits", "feedback",
                   "Always run the integration tests before committing.\n\n"
                   "**Why:** a broken main blocked the release twice in October.\n"
                   "**How to apply:** any change under `src/` or `migrations/`.\n"));
  write_file(root / "MEMORY.md",
             read_file(root / "MEMORY.md") +
                 "- [Testing rules](feedback_testing.md) — how to run tests before commits\n");
  ok(sandbox, {"init", root.string()});
  write_file(root / "episodic" / "2026-08-01-testing.md",
             "---\ntype: episodic\ntags: [testing]\ncreated: 2026-08-01\n---\n# Session\n\n"
             "- Don't run the integration tests before committing; CI runs them now.\n");
  const auto memory = read_file(root / "MEMORY.md");
  ok(sandbox, {"consolidate", "--store", root.string(), "--now", k_now});
  const auto after = read_file(root / "feedback_testing.md");
  // The rule stands where the older one stood, as a line of its paragraph, not a list item.
  CHECK_THAT(after, Catch::Contains("---\nDon't run the integration tests before committing; CI "
                                    "runs them now.\n<!-- superseded "));
  CHECK_THAT(after, Catch::Contains("previously \"Always run the integration tests before "
                                    "committing.\""));
  // The reasons the agent wrote stay as they were, visible.
  CHECK_THAT(after, Catch::EndsWith("\n\n**Why:** a broken main blocked the release twice in "
                                    "October.\n**How to apply:** any change under `src/` or "
                                    "`migrations/`.\n"));
  CHECK(read_file(root / "MEMORY.md") == memory);
  check_sound(sandbox, root);
}
