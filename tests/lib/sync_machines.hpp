// Machines sharing a store through a git remote, for the sync tests: each a
// store of its own with a configuration naming the remote (any URL git
// speaks: a path, ssh://, http://), driven with the real `engram` and read
// back with the `git` command. Header-only, like the other test helpers.
#pragma once

#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace engram::test {

// The date the sync tests run at.
inline constexpr const char* k_sync_now = "2026-11-22";

// One machine: its store and the configuration that shares it through a remote.
struct Machine {
  std::filesystem::path store;
  std::filesystem::path config;
};

// A bare repository at `path` to share stores through.
inline std::filesystem::path bare_remote(const Sandbox& sandbox,
                                         const std::filesystem::path& path) {
  std::filesystem::create_directories(path.parent_path());
  const auto made =
      sandbox.git(sandbox.work(), {"init", "--quiet", "--bare", "-b", "main", path.string()});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  return path;
}

// Gives the bare repository `remote` a pre-receive hook running `script`
// (shell lines after the #! line): a server that refuses, waits or goes away.
inline void pre_receive_hook(const std::filesystem::path& remote, const std::string& script) {
  const auto hook = remote / "hooks" / "pre-receive";
  write_file(hook, "#!/bin/sh\n" + script);
  std::filesystem::permissions(hook, std::filesystem::perms::owner_all);
}

// A machine named `name` whose store shares `url`; with `clone`, its store
// starts as a clone of the remote, as a second machine joins. `extra` adds
// lines to its [[store]] table.
inline Machine machine(const Sandbox& sandbox, const std::string& name, const std::string& url,
                       bool clone, const std::string& extra = "") {
  Machine m{sandbox.work(name + "/store"), sandbox.work(name + "/engram.toml")};
  std::filesystem::create_directories(m.store.parent_path());
  write_file(m.config, "[[store]]\npath = \"" + m.store.string() + "\"\ngit.remote = \"" + url +
                           "\"\ngit.branch = \"main\"\ngit.sync = true\n" + "git.machine = \"" +
                           name + "\"\n" + extra);
  if (clone) {
    const auto cloned =
        sandbox.git(m.store.parent_path(), {"clone", "--quiet", url, m.store.string()});
    INFO(cloned.err);
    REQUIRE(cloned.exit_code == 0);
  }
  const auto init = sandbox.engram({"--config", m.config.string(), "init", m.store.string()});
  INFO(init.out << init.err);
  REQUIRE(init.exit_code == 0);
  return m;
}

// Runs engram as `m` with `args`.
inline Result as(const Sandbox& sandbox, const Machine& m, std::vector<std::string> args) {
  args.insert(args.begin(), {"--config", m.config.string()});
  return sandbox.engram(args);
}

// One sync round of `m` that must succeed; its JSON.
inline nlohmann::json synced(const Sandbox& sandbox, const Machine& m) {
  const auto run =
      as(sandbox, m, {"sync", "--store", m.store.string(), "--now", k_sync_now, "--json"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return nlohmann::json::parse(run.out);
}

// The text of every file of a store outside .git, for conflict markers.
inline std::string all_text(const std::filesystem::path& store) {
  std::string out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(store)) {
    if (entry.is_regular_file() && entry.path().string().find("/.git/") == std::string::npos) {
      out += read_file(entry.path());
    }
  }
  return out;
}

// No conflict marker of git's anywhere in the store's files.
inline void check_no_conflict_markers(const std::filesystem::path& store) {
  const auto text = all_text(store);
  INFO(store.string());
  CHECK(text.find("<<<<<<<") == std::string::npos);
  CHECK(text.find(">>>>>>>") == std::string::npos);
}

// `git fsck` of a repository finds nothing wrong.
inline void check_fsck(const Sandbox& sandbox, const std::filesystem::path& repository) {
  const auto fsck = sandbox.git(repository, {"fsck", "--strict", "--no-progress"});
  INFO(repository.string() << ": " << fsck.out << fsck.err);
  CHECK(fsck.exit_code == 0);
}

// The shared file the sync tests add claims to.
inline const std::string k_deploys = "semantic/deploys.md";

// That file holding `items` as claims.
inline std::string deploys(const std::vector<std::string>& items) {
  std::string body = "# Deploys\n\n";
  for (const auto& item : items) {
    body += "- " + item + "\n";
  }
  return semantic_memory({"deploys"}, "2026-01-05", body);
}

} // namespace engram::test
