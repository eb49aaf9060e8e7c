// The agent hooks with the real binary and recorded Claude Code payloads
// (tests/corpus/hooks/): `session-start` and `user-prompt-submit` print the
// JSON Claude Code reads — with a prompt, without one, on an empty store, and
// from a payload that is not JSON — and always exit 0; `session-end` asks a
// running daemon for a consolidation and returns, or says no daemon runs.
#include "base/utf8.hpp"
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace engram::test;
using namespace std::chrono_literals;

namespace {

// A recorded hook payload.
fs::path payload(const std::string& name) {
  return fs::path(ENGRAM_TEST_CORPUS) / "hooks" / name;
}

// Runs `engram hook EVENT --store STORE` with `input` on stdin.
Result hook(const Sandbox& sandbox, const std::string& event, const fs::path& store,
            const fs::path& input, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{ENGRAM_BINARY, "hook", event, "--store", store.string(), "--now",
                                "2026-11-22"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run(args, sandbox.engram_environment(), input);
}

// The additionalContext of a hook's output, checking the shape Claude Code expects.
std::string context_of(const Result& result, const std::string& event) {
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  REQUIRE(json.is_object());
  REQUIRE(json.size() == 1);
  const auto& specific = json.at("hookSpecificOutput");
  CHECK(specific.at("hookEventName") == event);
  return specific.at("additionalContext").get<std::string>();
}

// A store seeded from the example (its procedural rules carry the trigger
// `database-is-locked`), with a CORE.md, indexed.
fs::path example_store(const Sandbox& sandbox) {
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox
              .engram({"init", "--example", std::string(ENGRAM_SOURCE_DIR) + "/examples/store",
                       store.string()})
              .exit_code == 0);
  write_file(store / "CORE.md", "---\ntype: core\n---\n# Core memory\n\n- The user is Dana, "
                                "who runs the Acme shop.\n");
  const auto indexed = sandbox.engram(
      {"consolidate", "--store", store.string(), "--lightweight", "--now", "2026-11-22"});
  INFO(indexed.err);
  REQUIRE(indexed.exit_code == 0);
  return store;
}

} // namespace

TEST_CASE("hook session-start injects core memory, working memory and what the prompt recalls") {
  Sandbox sandbox;
  const auto store = example_store(sandbox);
  const auto context =
      context_of(hook(sandbox, "session-start", store, payload("session-start-prompt.json")),
                 "SessionStart");
  const auto core = context.find("who runs the Acme shop");
  const auto working = context.find("Move the order sync from polling to Shopify webhooks");
  const auto recalled = context.find("### procedural/feedback.md");
  REQUIRE(core != std::string::npos);
  REQUIRE(working != std::string::npos);
  REQUIRE(recalled != std::string::npos); // its trigger: database-is-locked
  CHECK(core < working);
  CHECK(working < recalled);
  CHECK(engram::count_chars(context) <= 8000);
  // The recall is in the usage log, with the session it served.
  const auto log = read_file(store / ".engram/usage.jsonl");
  CHECK(log.find(R"("session":"0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0")") != std::string::npos);
  CHECK(log.find("procedural/feedback.md") != std::string::npos);
}

TEST_CASE("hook session-start without a prompt recalls from working memory, within its budget") {
  Sandbox sandbox;
  const auto store = example_store(sandbox);
  const auto context = context_of(
      hook(sandbox, "session-start", store, payload("session-start-startup.json")), "SessionStart");
  CHECK(context.find("## Working memory (WORKING.md)") != std::string::npos);
  CHECK(context.find("## Recalled memories") != std::string::npos);

  write_file(sandbox.work("small.toml"), "[hook]\nbudget_chars = 400\n");
  const auto small =
      run({ENGRAM_BINARY, "--config", sandbox.work("small.toml").string(), "hook", "session-start",
           "--store", store.string()},
          sandbox.engram_environment(), payload("session-start-startup.json"));
  const auto cut = context_of(small, "SessionStart");
  CHECK(engram::count_chars(cut) <= 400);
  CHECK(cut.find("who runs the Acme shop") != std::string::npos);
  CHECK(cut.find("cut at the context budget; the rest is in WORKING.md") != std::string::npos);
}

TEST_CASE("hook session-start on an empty store prints valid JSON with nothing to inject") {
  Sandbox sandbox;
  const auto store = sandbox.work("empty");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const auto result = hook(sandbox, "session-start", store, payload("session-start-startup.json"));
  const auto context = context_of(result, "SessionStart");
  CHECK(context.find("## Recalled memories") == std::string::npos);
  CHECK(!fs::exists(store / ".engram/usage.jsonl"));

  // Not even a store: still valid JSON, still exit 0.
  const auto nowhere =
      hook(sandbox, "session-start", sandbox.work("nowhere"), payload("session-start-prompt.json"));
  CHECK(context_of(nowhere, "SessionStart").empty());
}

TEST_CASE("a hook payload that is not JSON is diagnosed, and the hook still answers") {
  Sandbox sandbox;
  const auto store = example_store(sandbox);
  const auto result = hook(sandbox, "session-start", store, payload("bad-json.json"));
  CHECK(result.err.find("<stdin>:2: not JSON") != std::string::npos);
  const auto context = context_of(result, "SessionStart");
  CHECK(context.find("who runs the Acme shop") != std::string::npos);
}

TEST_CASE("hook user-prompt-submit injects only what the prompt recalls") {
  Sandbox sandbox;
  const auto store = example_store(sandbox);
  const auto context = context_of(
      hook(sandbox, "user-prompt-submit", store, payload("user-prompt-submit.json")),
      "UserPromptSubmit");
  CHECK(context.find("### semantic/shopify-api.md") != std::string::npos);
  CHECK(context.find("## Working memory") == std::string::npos);
  CHECK(context.find("who runs the Acme shop") == std::string::npos);
}

TEST_CASE("hook session-end without a daemon says so and exits 0") {
  Sandbox sandbox;
  const auto store = example_store(sandbox);
  const auto head = head_of(sandbox, store);
  const auto result = hook(sandbox, "session-end", store, payload("session-end.json"));
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(result.err.find("no daemon keeps") != std::string::npos);
  CHECK(head_of(sandbox, store) == head);
}

TEST_CASE("hook session-end asks the running daemon for a consolidation and returns at once") {
  Sandbox sandbox;
  const auto made = daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto runs = daemon.store_status().value("consolidations", std::size_t{0});
  const auto result = run({ENGRAM_BINARY, "--config", made.config.string(), "hook", "session-end",
                           "--store", made.store.string()},
                          sandbox.engram_environment(), payload("session-end.json"));
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(daemon.wait_idle_after(runs, 20s));
  INFO(daemon.log());
  CHECK(daemon.log().find("consolidation requested (full)") != std::string::npos);
}
