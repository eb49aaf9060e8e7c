// Recall and the usage log with the real binary: what `engram recall`
// returns (trigger words, superseded memories, related ones, the budget),
// and how `recall` and `feedback` reach the memories' frontmatter through a
// consolidation — in its one commit, the log empty after it, nothing counted
// twice when a run is killed between its commit and releasing the log, and
// nothing lost when agents write to the log while a consolidation runs.
#include "lib/history.hpp"
#include "recall/recall_index.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// The day every run of these tests happens on.
constexpr const char* k_today = "2026-11-22";

// A memory file with every field recall reads.
std::string memory(const std::string& type, const std::string& tags, const std::string& trigger,
                   const std::string& related, const std::string& status, const std::string& body,
                   const std::string& salience = "medium") {
  return "---\ntype: " + type + "\ntags: " + tags + "\nsalience: " + salience +
         "\nconfidence: high\nsource: observed\nstatus: " + status + "\ntrigger: " + trigger +
         "\nrelated: " + related + "\ncreated: 2026-10-01\nlast-accessed: 2026-10-01\n---\n" + body;
}

// A store with the memories these tests recall, committed and indexed.
fs::path recall_store(const Sandbox& sandbox) {
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  write_file(store / "semantic/pip-scripts.md",
             memory("semantic", "[python, packaging]", "[command-not-found, scripts-path]", "[]",
                    "confirmed", "- Scripts land in the per-user folder, outside PATH.\n"));
  write_file(store / "semantic/billing-v1.md",
             memory("semantic", "[billing, invoices]", "[]", "[]", "superseded",
                    "- Billing goes through the v1 invoices endpoint.\n"));
  write_file(store / "semantic/billing-v2.md",
             memory("semantic", "[billing, invoices]", "[]", "[semantic/tax-rules.md]", "confirmed",
                    "- Billing goes through the v2 invoices endpoint.\n"));
  write_file(store / "semantic/tax-rules.md",
             memory("semantic", "[tax, vat]", "[]", "[]", "confirmed",
                    "- VAT is added at 20 percent for every order in the EU.\n"));
  write_file(store / "reference/billing-handbook.md",
             memory("reference", "[billing, handbook]", "[]", "[]", "confirmed",
                    "- The billing handbook is in the wiki.\n" + std::string(3000, 'x') + "\n",
                    "high"));
  const auto indexed =
      sandbox.engram({"consolidate", "--store", store.string(), "--lightweight", "--now", k_today});
  INFO(indexed.out << indexed.err);
  REQUIRE(indexed.exit_code == 0);
  return store;
}

// `engram recall --json` as parsed JSON.
nlohmann::json recall_json(const Sandbox& sandbox, const fs::path& store,
                           const std::vector<std::string>& extra) {
  std::vector<std::string> args{"recall", "--store", store.string(), "--json", "--now", k_today};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto result = sandbox.engram(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(result.out);
}

// The paths of a recall's memories, in order.
std::vector<std::string> paths_of(const nlohmann::json& recalled) {
  std::vector<std::string> paths;
  for (const auto& memory : recalled["memories"]) {
    paths.push_back(memory["path"].get<std::string>());
  }
  return paths;
}

// The usage logs in the store's state folder (live and taken).
std::vector<std::string> usage_logs(const fs::path& store) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(store / ".engram")) {
    const auto name = entry.path().filename().string();
    if (name.starts_with("usage")) {
      names.push_back(name);
    }
  }
  return names;
}

// The value of a frontmatter line `key: value` in a file, or "" when absent.
std::string field(const fs::path& file, const std::string& key) {
  const auto text = read_file(file);
  const auto at = text.find("\n" + key + ": ");
  if (at == std::string::npos) {
    return {};
  }
  const auto start = at + key.size() + 3;
  return text.substr(start, text.find('\n', start) - start);
}

// Runs a consolidation of `store` that must succeed.
void consolidate(const Sandbox& sandbox, const fs::path& store,
                 const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{"consolidate", "--store", store.string(), "--now", k_today};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto result = sandbox.engram(args);
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
}

// Recalls the pip memory once and marks it helpful once; both go to the log.
void use_pip_memory(const Sandbox& sandbox, const fs::path& store) {
  REQUIRE(paths_of(recall_json(sandbox, store, {"command not found"})) ==
          std::vector<std::string>{"semantic/pip-scripts.md"});
  const auto noted = sandbox.engram({"feedback", "--store", store.string(), "--now", k_today,
                                     "semantic/pip-scripts.md", "--helpful"});
  INFO(noted.err);
  REQUIRE(noted.exit_code == 0);
}

} // namespace

TEST_CASE("a consolidation leaves the recall index of the .index.json it wrote") {
  // Made from the planned bytes while the commit was made: it must be what
  // building it from the written file gives, stamped with that file.
  const Sandbox sandbox;
  const auto store = recall_store(sandbox);
  const engram::store::Layout layout;
  const auto stamp = engram::recall::stamp_of(store / ".index.json");
  REQUIRE(stamp);
  CHECK(read_file(engram::recall::index_path(store, layout)) ==
        engram::recall::RecallIndex::build(read_file(store / ".index.json"), *stamp, layout));
}

TEST_CASE("a memory matched only by its trigger words is recalled") {
  Sandbox sandbox;
  const auto store = recall_store(sandbox);
  const auto recalled = recall_json(sandbox, store, {"command not found"});
  CHECK(paths_of(recalled) == std::vector<std::string>{"semantic/pip-scripts.md"});

  const auto plain = sandbox.engram(
      {"recall", "--store", store.string(), "--now", k_today, "command", "not", "found"});
  CHECK(plain.exit_code == 0);
  CHECK(plain.out == "semantic/pip-scripts.md\n");
}

TEST_CASE("a superseded memory is never recalled, and a related one follows its match") {
  Sandbox sandbox;
  const auto store = recall_store(sandbox);
  const auto paths =
      paths_of(recall_json(sandbox, store, {"--budget", "100000", "billing invoices"}));
  CHECK(std::find(paths.begin(), paths.end(), "semantic/billing-v1.md") == paths.end());
  REQUIRE(std::find(paths.begin(), paths.end(), "semantic/billing-v2.md") != paths.end());
  // tax-rules shares no word with the query: billing-v2's `related` brings it, ranked after.
  const auto v2 = std::find(paths.begin(), paths.end(), "semantic/billing-v2.md");
  const auto tax = std::find(paths.begin(), paths.end(), "semantic/tax-rules.md");
  REQUIRE(tax != paths.end());
  CHECK(tax > v2);
  const auto recalled = recall_json(sandbox, store, {"--budget", "100000", "billing"});
  for (const auto& memory : recalled["memories"]) {
    if (memory["path"] == "semantic/tax-rules.md") {
      CHECK(memory["via"] == "semantic/billing-v2.md");
    }
  }
}

TEST_CASE("recall stays within its character budget and its limit") {
  Sandbox sandbox;
  const auto store = recall_store(sandbox);
  const auto everything = recall_json(sandbox, store, {"--budget", "100000", "billing"});
  REQUIRE(paths_of(everything).front() == "reference/billing-handbook.md"); // high salience
  const auto within = recall_json(sandbox, store, {"--budget", "1000", "--context", "billing"});
  const auto paths = paths_of(within);
  CHECK(std::find(paths.begin(), paths.end(), "reference/billing-handbook.md") == paths.end());
  CHECK(std::find(paths.begin(), paths.end(), "semantic/billing-v2.md") != paths.end());
  CHECK(within["chars"].get<std::size_t>() <= 1000);
  std::size_t chars = 0;
  for (const auto& memory : within["memories"]) {
    chars += memory["chars"].get<std::size_t>();
    CHECK(memory["content"].get<std::string>().find("---\ntype: ") == 0);
  }
  CHECK(chars == within["chars"].get<std::size_t>());

  const auto one = recall_json(sandbox, store, {"--budget", "100000", "--limit", "1", "billing"});
  CHECK(paths_of(one) == std::vector<std::string>{"reference/billing-handbook.md"});
}

TEST_CASE("recall and feedback reach the frontmatter in one commit, and the log is then empty") {
  Sandbox sandbox;
  const auto store = recall_store(sandbox);
  const auto before = read_file(store / "semantic/pip-scripts.md");
  use_pip_memory(sandbox, store);
  // Reading changed no memory file.
  CHECK(read_file(store / "semantic/pip-scripts.md") == before);
  CHECK(usage_logs(store) == std::vector<std::string>{"usage.jsonl"});
  const auto head = head_of(sandbox, store);

  consolidate(sandbox, store, {"--lightweight"});
  const auto file = store / "semantic/pip-scripts.md";
  CHECK(field(file, "uses") == "1");
  CHECK(field(file, "helpful") == "1");
  CHECK(field(file, "unhelpful").empty());
  CHECK(field(file, "last-accessed") == k_today);
  // Every other byte is as it was: only last-accessed changed, two lines added.
  auto expected = before;
  expected.replace(expected.find("last-accessed: 2026-10-01"), 25,
                   std::string("last-accessed: ") + k_today + "\nuses: 1\nhelpful: 1");
  CHECK(read_file(file) == expected);

  // One commit, on top of the one before, holding the fold and the record.
  CHECK(git_out(sandbox, store, {"rev-parse", "HEAD~1"}) == head + "\n");
  const auto message = git_out(sandbox, store, {"log", "-1", "--notes=engram", "--format=%B%N"});
  CHECK(message.find("usage counted: semantic/pip-scripts.md (uses +1, helpful +1") !=
        std::string::npos);
  CHECK(message.find("Engram-Usage: usage-") != std::string::npos);
  const auto changed = git_lines(sandbox, store, {"show", "--name-only", "--format=", "HEAD"});
  CHECK(std::find(changed.begin(), changed.end(), "semantic/pip-scripts.md") != changed.end());
  CHECK(usage_logs(store).empty());
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}).empty());

  // A second run finds nothing to fold and makes no commit.
  const auto folded = head_of(sandbox, store);
  consolidate(sandbox, store, {"--lightweight"});
  CHECK(head_of(sandbox, store) == folded);
  CHECK(field(file, "uses") == "1");
}

TEST_CASE("a run killed after its commit and before releasing the log does not count twice") {
  const auto point = GENERATE(as<std::string>{}, "after-commit", "before-usage-release");
  Sandbox sandbox;
  const auto store = recall_store(sandbox);
  use_pip_memory(sandbox, store);
  const auto killed = engram_with(
      sandbox, {"consolidate", "--store", store.string(), "--lightweight", "--now", k_today},
      {{"ENGRAM_TEST_CRASH_AT", point}});
  INFO(point << ": " << killed.err);
  REQUIRE(killed.exit_code == 128 + SIGKILL);
  const auto file = store / "semantic/pip-scripts.md";
  REQUIRE(field(file, "uses") == "1");
  REQUIRE(usage_logs(store).size() == 1); // the taken log, its commit made

  consolidate(sandbox, store, {"--lightweight"});
  CHECK(field(file, "uses") == "1");
  CHECK(field(file, "helpful") == "1");
  CHECK(usage_logs(store).empty());
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}).empty());
}

TEST_CASE("a run killed before its commit leaves the log to be folded once by the next") {
  const auto point =
      GENERATE(as<std::string>{}, "after-usage-take", "after-pending", "before-commit");
  Sandbox sandbox;
  const auto store = recall_store(sandbox);
  use_pip_memory(sandbox, store);
  const auto killed = engram_with(
      sandbox, {"consolidate", "--store", store.string(), "--lightweight", "--now", k_today},
      {{"ENGRAM_TEST_CRASH_AT", point}});
  INFO(point << ": " << killed.err);
  REQUIRE(killed.exit_code == 128 + SIGKILL);

  consolidate(sandbox, store, {"--lightweight"});
  const auto file = store / "semantic/pip-scripts.md";
  CHECK(field(file, "uses") == "1");
  CHECK(field(file, "helpful") == "1");
  CHECK(usage_logs(store).empty());
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%B"}).find("Engram-Usage: usage-") !=
        std::string::npos);
}

TEST_CASE("lines appended to the log while a consolidation runs are kept for the next one") {
  Sandbox sandbox;
  const auto store = recall_store(sandbox);
  use_pip_memory(sandbox, store);
  TempDir capture;
  Environment changes = sandbox.engram_environment();
  changes["ENGRAM_TEST_PAUSE_AT"] = "before-commit";
  const pid_t pid = spawn(
      {ENGRAM_BINARY, "consolidate", "--store", store.string(), "--lightweight", "--now", k_today},
      changes, capture / "out", capture / "err");
  int status = 0;
  while (::waitpid(pid, &status, WUNTRACED) < 0 && errno == EINTR) {
  }
  REQUIRE(WIFSTOPPED(status));
  // The run took the log; this line starts a new one.
  const auto noted = sandbox.engram({"feedback", "--store", store.string(), "--now", k_today,
                                     "semantic/pip-scripts.md", "--unhelpful"});
  CHECK(noted.exit_code == 0);
  ::kill(pid, SIGCONT);
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  INFO(read_file(capture / "err"));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);

  const auto file = store / "semantic/pip-scripts.md";
  CHECK(field(file, "helpful") == "1");
  CHECK(field(file, "unhelpful").empty());
  CHECK(usage_logs(store) == std::vector<std::string>{"usage.jsonl"});
  consolidate(sandbox, store, {"--lightweight"});
  CHECK(field(file, "unhelpful") == "1");
  CHECK(field(file, "uses") == "1");
  CHECK(usage_logs(store).empty());
}

TEST_CASE(
    "usage of a memory that is gone is dropped with a note, and bad log lines are diagnosed") {
  Sandbox sandbox;
  const auto store = recall_store(sandbox);
  use_pip_memory(sandbox, store);
  std::string log = read_file(store / ".engram/usage.jsonl");
  log += "this is not json\n";
  log += R"({"event":"recall","date":"2026-11-22","files":["semantic/deleted.md"],"query":"x"})"
         "\n";
  write_file(store / ".engram/usage.jsonl", log);
  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--lightweight", "--now", k_today});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.err.find(".jsonl:3: not a JSON object") != std::string::npos);
  const auto message = git_out(sandbox, store, {"log", "-1", "--notes=engram", "--format=%B%N"});
  CHECK(message.find("usage dropped: semantic/deleted.md (1 usage entry names no memory") !=
        std::string::npos);
  CHECK(field(store / "semantic/pip-scripts.md", "uses") == "1");
  CHECK(usage_logs(store).empty());
}

TEST_CASE("feedback names a memory of the store, and only one verdict") {
  Sandbox sandbox;
  const auto store = recall_store(sandbox);
  CHECK(sandbox.engram({"feedback", "--store", store.string(), "semantic/none.md", "--helpful"})
            .exit_code == 1);
  CHECK(
      sandbox.engram({"feedback", "--store", store.string(), "MEMORY.md", "--helpful"}).exit_code ==
      1);
  CHECK(sandbox
            .engram({"feedback", "--store", store.string(), "semantic/tax-rules.md", "--helpful",
                     "--unhelpful"})
            .exit_code == 2);
  CHECK(sandbox
            .engram({"feedback", "--store", store.string(),
                     (store / "semantic/tax-rules.md").string(), "--unhelpful"})
            .exit_code == 0);
  CHECK(read_file(store / ".engram/usage.jsonl").find(R"("files":["semantic/tax-rules.md"])") !=
        std::string::npos);
}
