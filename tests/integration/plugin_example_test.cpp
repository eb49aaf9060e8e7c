// The example plugin (plugins/example) as its README has a user make it: built
// out of tree against an installed engram, dropped into a configured plugin
// folder, and run by that installed engram in a consolidation.
#include "lib/process.hpp"
#include "plugins/host.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using engram::test::Result;
using engram::test::Sandbox;
using engram::test::write_file;

namespace {

// An unchecked item of WORKING.md.
constexpr const char* k_working_todo = "Ask Dana whether refunds must appear in the nightly report";

// An unchecked item of a semantic file.
constexpr const char* k_semantic_todo = "Find out why the webhook retries twice";

// A semantic file with one open and one done item.
const std::string k_semantic = std::string(R"(---
type: semantic
tags: [shopify, webhooks]
salience: medium
confidence: high
source: observed
status: confirmed
created: 2026-11-01
last-accessed: 2026-11-20
---
# Shopify webhooks

- Webhooks are signed with the app secret (HMAC-SHA256).
- [x] Register the orders/create webhook
- [ ] )") + k_semantic_todo + "\n";

// Runs a program, showing its output when it fails.
Result run_checked(const std::vector<std::string>& args,
                   const engram::test::Environment& changes = {}) {
  auto result = engram::test::run(args, changes);
  INFO(args[0] << ' ' << (args.size() > 1 ? args[1] : "") << "\nstdout:\n"
               << result.out << "\nstderr:\n"
               << result.err);
  CHECK(result.exit_code == 0);
  return result;
}

// Runs the installed engram in the sandbox; like Sandbox::engram, it must find
// its commit identity itself, not through git's variables.
Result installed_engram(const Sandbox& sandbox, const fs::path& prefix,
                        std::vector<std::string> args) {
  args.insert(args.begin(), (prefix / "bin" / "engram").string());
  auto changes = sandbox.environment();
  for (const char* name :
       {"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"}) {
    changes[name] = "";
  }
  return engram::test::run(args, changes);
}

// True when the installed engram has the subcommand: `engram X --help` prints
// X's own usage (for an unknown X, CLI11 prints the top-level help and exits 0).
bool has_command(const Sandbox& sandbox, const fs::path& prefix, const std::string& command) {
  const auto help = installed_engram(sandbox, prefix, {command, "--help"});
  return help.exit_code == 0 && help.out.find("Usage: engram " + command) != std::string::npos;
}

// The number of commits on HEAD that touched `path`.
int commits_touching(const Sandbox& sandbox, const fs::path& store, const std::string& path) {
  const auto log = sandbox.git(store, {"log", "--format=%H", "--", path});
  REQUIRE(log.exit_code == 0);
  return static_cast<int>(log.out_lines().size());
}

} // namespace

TEST_CASE("the example plugin builds out of tree against an installed engram, and engram runs it") {
  const Sandbox sandbox;
  const fs::path prefix = sandbox.work("prefix");
  const fs::path build = sandbox.work("example-build");
  REQUIRE(run_checked({"cmake", "--install", ENGRAM_BUILD_DIR, "--prefix", prefix.string()})
              .exit_code == 0);

  // Configure and build exactly as the README says, plus -Werror: the example must stay
  // warning-free.
  REQUIRE(run_checked({"cmake", "-S", std::string(ENGRAM_SOURCE_DIR) + "/plugins/example", "-B",
                       build.string(), "-DCMAKE_PREFIX_PATH=" + prefix.string(),
                       "-DCMAKE_CXX_COMPILER=" ENGRAM_CXX_COMPILER, "-DCMAKE_CXX_FLAGS=-Werror"})
              .exit_code == 0);
  REQUIRE(run_checked({"cmake", "--build", build.string()}).exit_code == 0);
  const fs::path library = build / "todo-collector.so";
  REQUIRE(fs::is_regular_file(library));

  // Drop it into a plugin folder only its owner can write.
  const fs::path folder = sandbox.work("plugins");
  fs::create_directories(folder);
  fs::permissions(folder, fs::perms(0755));
  fs::copy_file(library, folder / "todo-collector.so");
  fs::permissions(folder / "todo-collector.so", fs::perms(0755));

  // This engram's own host accepts it: the descriptor matches this SDK.
  {
    engram::plugins::Host host;
    host.load_folder(folder);
    for (const auto& refused : host.refused()) {
      FAIL_CHECK(refused.path << ": " << refused.reason);
    }
    const auto loaded = host.loaded();
    REQUIRE(loaded.size() == 1);
    CHECK(loaded[0].name == "todo-collector");
    CHECK(loaded[0].phase == engram::Phase::promote);
    CHECK(loaded[0].version == "0.1.0");
    CHECK(loaded[0].path == (folder / "todo-collector.so").string());
  }

  // The installed engram, configured with the folder, runs it in a consolidation.
  if (!has_command(sandbox, prefix, "consolidate")) {
    WARN("`engram consolidate` does not exist yet: the example plugin was built and loaded, not "
         "run");
    return;
  }
  write_file(sandbox.default_config_file(), "[plugins]\ndirs = [\"" + folder.string() + "\"]\n");
  if (has_command(sandbox, prefix, "plugins")) {
    const auto listed = installed_engram(sandbox, prefix, {"plugins"});
    INFO(listed.out << listed.err);
    CHECK(listed.exit_code == 0);
    CHECK(listed.out.find("todo-collector") != std::string::npos);
    CHECK(listed.out.find((folder / "todo-collector.so").string()) != std::string::npos);
  } else {
    WARN("`engram plugins` does not exist yet: the plugin list was not checked");
  }

  const fs::path store = sandbox.work("memory");
  REQUIRE(installed_engram(sandbox, prefix, {"init", store.string()}).exit_code == 0);
  {
    std::string working = engram::test::read_file(store / "WORKING.md");
    if (!working.empty() && working.back() != '\n') {
      working += '\n';
    }
    write_file(store / "WORKING.md", working + "- [ ] " + k_working_todo + "\n");
  }
  write_file(store / "semantic" / "shopify-webhooks.md", k_semantic);

  const std::vector<std::string> consolidate{"consolidate", "--store", store.string(), "--now",
                                             "2026-11-22"};
  const auto first = installed_engram(sandbox, prefix, consolidate);
  INFO("consolidate:\n" << first.out << first.err);
  REQUIRE(first.exit_code == 0);

  const auto stat = sandbox.git(store, {"show", "--stat", "HEAD"});
  INFO(stat.out);
  CHECK(stat.out.find("reference/open-todos.md") != std::string::npos);
  const auto list = sandbox.git(store, {"show", "HEAD:reference/open-todos.md"});
  REQUIRE(list.exit_code == 0);
  CHECK(list.out.starts_with("---\ntype: reference\n"));
  CHECK(list.out.find("created: 2026-11-22\n") != std::string::npos);
  CHECK(list.out.find(std::string("- ") + k_working_todo + " (`WORKING.md`)\n") !=
        std::string::npos);
  CHECK(list.out.find(std::string("- ") + k_semantic_todo +
                      " (`semantic/shopify-webhooks.md`)\n") != std::string::npos);
  CHECK(list.out.find("Register the orders/create webhook") == std::string::npos); // checked off
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());

  // Idempotent: a second consolidation leaves the list, and its history, alone.
  REQUIRE(installed_engram(sandbox, prefix, consolidate).exit_code == 0);
  CHECK(commits_touching(sandbox, store, "reference/open-todos.md") == 1);
  CHECK(sandbox.git(store, {"show", "HEAD:reference/open-todos.md"}).out == list.out);
}
