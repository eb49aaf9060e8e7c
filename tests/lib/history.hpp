// History checks for integration tests: running engram with extra variables
// (a crash point, say), reading results back with the real `git`, and the
// soundness every commit must leave: `git status` empty, `git fsck` clean.
#pragma once

#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace engram::test {

// Runs the engram binary under test with `args`, in the sandbox, with the
// variables of `extra` set as well (ENGRAM_TEST_CRASH_AT, for one).
inline Result engram_with(const Sandbox& sandbox, const std::vector<std::string>& args,
                          const Environment& extra) {
  std::vector<std::string> command{ENGRAM_BINARY};
  command.insert(command.end(), args.begin(), args.end());
  Environment changes = sandbox.environment();
  // engram must find its identity itself, not through git's variables.
  for (const char* name :
       {"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"}) {
    changes[name] = "";
  }
  for (const auto& [name, value] : extra) {
    changes[name] = value;
  }
  return run(command, changes);
}

// The stdout of a git command in `store` that must succeed.
inline std::string git_out(const Sandbox& sandbox, const std::filesystem::path& store,
                           const std::vector<std::string>& args) {
  const auto result = sandbox.git(store, args);
  INFO("git " << (args.empty() ? std::string() : args.front()) << ": " << result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

// The lines of the stdout of a git command that must succeed.
inline std::vector<std::string> git_lines(const Sandbox& sandbox,
                                          const std::filesystem::path& store,
                                          const std::vector<std::string>& args) {
  Result result;
  result.out = git_out(sandbox, store, args);
  return result.out_lines();
}

// The git folder of a store's history, as `engram status` names it.
inline std::filesystem::path history_of_store(const Sandbox& sandbox,
                                              const std::filesystem::path& store) {
  const auto status = sandbox.engram({"status", "--store", store.string(), "--json"});
  INFO(status.err);
  REQUIRE(status.exit_code == 0);
  const auto at = status.out.find("\"history\": \"");
  REQUIRE(at != std::string::npos);
  const auto begin = at + 12;
  return status.out.substr(begin, status.out.find('"', begin) - begin);
}

// `args` for a git command on a history kept outside its store.
inline std::vector<std::string> outside(const std::filesystem::path& history,
                                        const std::filesystem::path& store,
                                        std::vector<std::string> args) {
  args.insert(args.begin(), {"--git-dir", history.string(), "--work-tree", store.string()});
  return args;
}

// HEAD's commit id, without the newline.
inline std::string head_of(const Sandbox& sandbox, const std::filesystem::path& store) {
  auto out = git_out(sandbox, store, {"rev-parse", "HEAD"});
  while (!out.empty() && out.back() == '\n') {
    out.pop_back();
  }
  return out;
}

// Checks what every commit must leave: nothing for `git status` to show, and
// a repository `git fsck --full --strict` finds sound.
inline void check_sound(const Sandbox& sandbox, const std::filesystem::path& store) {
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}).empty());
  const auto fsck = sandbox.git(store, {"fsck", "--full", "--strict"});
  INFO(fsck.out + fsck.err);
  CHECK(fsck.exit_code == 0);
  CHECK_THAT(fsck.out + fsck.err, !Catch::Contains("error") && !Catch::Contains("broken") &&
                                      !Catch::Contains("missing"));
}

// Everything a history is: each commit with its tree, parents and subject,
// and HEAD's files. Equal before and after, nothing of it changed.
inline std::string history_of(const Sandbox& sandbox, const std::filesystem::path& store) {
  return git_out(sandbox, store, {"log", "--format=%H %T %P %s"}) +
         git_out(sandbox, store, {"ls-tree", "-r", "HEAD"});
}

// `git count-objects -v`, by name: count (loose), in-pack, packs, ...
inline std::map<std::string, long long> object_counts(const Sandbox& sandbox,
                                                      const std::filesystem::path& store) {
  std::map<std::string, long long> counts;
  for (const auto& line : git_lines(sandbox, store, {"count-objects", "-v"})) {
    const auto colon = line.find(':');
    counts[line.substr(0, colon)] = std::stoll(line.substr(colon + 1));
  }
  return counts;
}

// The bytes of every regular file of the store but `.git/` and engram's
// `.engram/`, by path: what a command that "changes nothing" must leave alone.
inline std::map<std::string, std::string> memory_files(const std::filesystem::path& store) {
  std::map<std::string, std::string> files;
  for (const auto& path : files_under(store)) {
    if (!path.starts_with(".engram/")) {
      files[path] = read_file(store / path);
    }
  }
  return files;
}

// The text of every memory file of the store, concatenated in path order.
inline std::string all_text(const std::filesystem::path& store) {
  std::string text;
  for (const auto& [path, bytes] : memory_files(store)) {
    text += bytes;
    text += '\n';
  }
  return text;
}

// The date the history tests consolidate as: both episodic files of
// make_history_store() have expired by then, the recent one has not.
inline constexpr const char* k_history_now = "2026-11-22";

// Every claim the episodic files of make_history_store() hold.
inline const std::vector<std::string> k_history_claims{
    "The nightly order sync timed out after 30 minutes.",
    "Raising the page size brought the run down to 6 minutes.",
    "Always pass `limit=250` when paging through Shopify orders.",
    "The sync runbook can be found at https://wiki.acme.example/sync.",
    "Order webhooks are delivered at least once.",
    "Webhook deliveries time out after 5 seconds.",
    "The staging shop was reset on Friday.",
};

// The two episodic files make_history_store() writes that decay at k_history_now.
inline const std::vector<std::string> k_history_expired{"episodic/2026-05-04-order-sync.md",
                                                        "episodic/2026-06-10-webhooks.md"};

// A store made by `engram init`, then given by "the agent" (uncommitted)
// semantic and reference memories, two expired episodic files and a recent
// one. A consolidation at k_history_now writes several files and removes two.
inline std::filesystem::path make_history_store(const Sandbox& sandbox,
                                                const std::string& name = "store") {
  const std::filesystem::path store = sandbox.work(name);
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
  write_file(store / k_history_expired[0],
             episodic_memory({"shopify", "api", "pagination", "sync"}, "2026-05-04", "2026-08-02",
                             "# Order sync timeouts\n\n"
                             "The nightly order sync timed out after 30 minutes.\n"
                             "Raising the page size brought the run down to 6 minutes.\n"
                             "Always pass `limit=250` when paging through Shopify orders.\n"
                             "The sync runbook can be found at https://wiki.acme.example/sync.\n"));
  write_file(store / k_history_expired[1],
             episodic_memory({"shopify", "webhooks"}, "2026-06-10", "",
                             "- Order webhooks are delivered at least once.\n"
                             "- Webhook deliveries time out after 5 seconds.\n"));
  write_file(
      store / "episodic" / "2026-11-20-recent.md",
      episodic_memory({"shopify"}, "2026-11-20", "", "- The staging shop was reset on Friday.\n"));
  return store;
}

// Checks that every claim of k_history_claims is somewhere in the store.
inline void check_every_claim(const std::filesystem::path& store) {
  const std::string text = all_text(store);
  for (const auto& claim : k_history_claims) {
    INFO(claim);
    CHECK_THAT(text, Catch::Contains(claim));
  }
}

} // namespace engram::test
