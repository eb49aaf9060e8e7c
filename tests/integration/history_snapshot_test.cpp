// Agent snapshots with the real binary and the real git: the agent's own edits
// are committed first, on their own, authored by the agent and committed by
// engram, with exactly the files it changed; then the consolidation commits
// only engram's work. `git status` is empty and `git fsck` clean after each.
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"
#include "lib/paused_run.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// A store whose agent files are committed, so the next commit holds only what a test does.
fs::path committed_store(const Sandbox& sandbox) {
  const fs::path store = make_history_store(sandbox);
  git_out(sandbox, store, {"add", "-A"});
  git_out(sandbox, store, {"commit", "-q", "-m", "agent files"});
  return store;
}

} // namespace

TEST_CASE("an agent's edits are committed as a snapshot by the agent, then the consolidation") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  const std::string before = head_of(sandbox, store);
  write_file(store / "WORKING.md", read_file(store / "WORKING.md") + "- [ ] check the sync\n");
  write_file(store / "semantic" / "new-fact.md",
             semantic_memory({"sqlite", "wal"}, "2026-11-21", "- WAL mode allows one writer.\n"));
  fs::remove(store / "reference" / "systems.md");

  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("committed the agent's changes first as"));

  // Two commits on top: the snapshot, then the consolidation.
  const auto subjects = git_lines(sandbox, store, {"log", "--format=%s", before + "..HEAD"});
  REQUIRE(subjects.size() == 2);
  CHECK(subjects[0].starts_with("consolidate(full):"));
  CHECK(subjects[1] == "snapshot: 3 files changed by the agent");

  // The snapshot holds exactly the agent's three files, and says so.
  CHECK(git_out(sandbox, store, {"show", "--format=", "--name-status", "HEAD~1"}) ==
        "M\tWORKING.md\nD\treference/systems.md\nA\tsemantic/new-fact.md\n");
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%B", "HEAD~1"}) ==
        "snapshot: 3 files changed by the agent\n\n"
        "- modified WORKING.md\n"
        "- deleted reference/systems.md\n"
        "- added semantic/new-fact.md\n\n"
        "Engram-Run: snapshot\n\n");
  CHECK(git_out(sandbox, store,
                {"log", "-1", "--format=%(trailers:key=Engram-Run,valueonly)", "HEAD~1"}) ==
        "snapshot\n\n");
  // Authored by the agent, committed by engram.
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%an", "HEAD~1"}) == "agent\n");
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%ae", "HEAD~1"}).starts_with("agent@"));
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%cn", "HEAD~1"}) == "engram\n");
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%an", "HEAD"}) == "engram\n");

  // The consolidation's diff holds none of the agent's edits.
  const auto engram_files = git_lines(sandbox, store, {"show", "--format=", "--name-only", "HEAD"});
  CHECK(std::find(engram_files.begin(), engram_files.end(), "WORKING.md") == engram_files.end());
  CHECK(std::find(engram_files.begin(), engram_files.end(), "semantic/new-fact.md") ==
        engram_files.end());
  check_sound(sandbox, store);
}

TEST_CASE("a snapshot alone leaves git status empty and git fsck clean") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now})
              .exit_code == 0);
  check_sound(sandbox, store);
  const std::string consolidated = head_of(sandbox, store);

  // An edit the rules have nothing to do with: only the snapshot is committed.
  const fs::path recent = store / "episodic" / "2026-11-20-recent.md";
  write_file(recent, read_file(recent) + "- The staging shop gets reset every Friday.\n");
  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(git_lines(sandbox, store, {"log", "--format=%s", consolidated + "..HEAD"}).back() ==
        "snapshot: 1 file changed by the agent");
  CHECK(git_out(sandbox, store, {"show", "--format=", "--name-only", consolidated + "..HEAD"})
            .find("episodic/2026-11-20-recent.md") != std::string::npos);
  check_sound(sandbox, store);
}

TEST_CASE("git.agent_name and git.agent_email name the snapshot's author") {
  const Sandbox sandbox;
  const fs::path config = sandbox.work("engram.toml");
  write_file(config, "[git]\nagent_name = \"Claude\"\nagent_email = \"claude@agents.example\"\n"
                     "author_name = \"Memory Keeper\"\n");
  const fs::path store = committed_store(sandbox);
  write_file(store / "WORKING.md", read_file(store / "WORKING.md") + "- [ ] one more\n");
  REQUIRE(sandbox
              .engram({"--config", config.string(), "consolidate", "--store", store.string(),
                       "--now", k_history_now})
              .exit_code == 0);
  CHECK(git_out(sandbox, store, {"log", "-1", "--format=%an <%ae> / %cn", "HEAD~1"}) ==
        "Claude <claude@agents.example> / Memory Keeper\n");
  check_sound(sandbox, store);
}

TEST_CASE("engram's state folder is never part of a snapshot, even when .gitignore lost it") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  write_file(store / ".gitignore", "# emptied by someone\n");
  write_file(store / ".engram" / "usage.log", "private\n");
  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now})
              .exit_code == 0);
  CHECK(git_out(sandbox, store, {"ls-files", ".engram"}).empty());
  check_sound(sandbox, store);
}

TEST_CASE("editors' swap files and backups never reach history, even when .gitignore lost them") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  write_file(store / ".gitignore", "# emptied by someone\n");
  write_file(store / "semantic" / ".notes.md.swp", "vim swap\n");
  write_file(store / "semantic" / "shopify-api.md~", "an editor's backup\n");
  write_file(store / "semantic" / "#notes.md#", "emacs autosave\n");
  write_file(store / "semantic" / ".~lock.notes.md#", "libreoffice lock\n");
  write_file(store / "semantic" / "notes.md", "---\ntype: semantic\ntags: [notes]\n---\n- A note.\n");
  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now})
              .exit_code == 0);
  const auto tracked = git_out(sandbox, store, {"ls-files", "semantic"});
  CHECK_THAT(tracked, Catch::Contains("semantic/notes.md\n"));
  CHECK_THAT(tracked, !Catch::Contains(".swp") && !Catch::Contains("~") &&
                          !Catch::Contains("#") && !Catch::Contains(".~lock"));
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}).empty());
}

namespace {

// A project's own repository with one commit, "project".
fs::path project_repository(const Sandbox& sandbox) {
  const fs::path project = sandbox.work("project");
  write_file(project / "README.md", "# project\n");
  git_out(sandbox, sandbox.work(), {"init", "-q", project.string()});
  git_out(sandbox, project, {"add", "-A"});
  git_out(sandbox, project, {"commit", "-q", "-m", "project"});
  return project;
}

} // namespace

TEST_CASE("init inside another repository keeps the store's history outside both") {
  const Sandbox sandbox;
  const fs::path project = project_repository(sandbox);

  const fs::path store = project / "memory";
  const auto result = sandbox.engram({"init", store.string()});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("note: " + store.string() +
                                         " belongs to the git repository " + project.string()));
  CHECK_FALSE(fs::exists(store / ".git"));
  CHECK_FALSE(fs::exists(store / ".gitignore")); // the project's to have
  const fs::path history = history_of_store(sandbox, store);
  CHECK_THAT(history.string(), Catch::Contains("/data/engram/history/memory-")); // XDG_DATA_HOME
  CHECK(git_out(sandbox, store, outside(history, store, {"log", "--format=%s"})) ==
        "init: create engram store\n");
  CHECK(git_out(sandbox, project, {"log", "--format=%s"}) == "project\n");

  // A consolidation commits there too, and `engram log` reads it.
  write_file(store / "WORKING.md", read_file(store / "WORKING.md") + "- [ ] one more\n");
  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now})
              .exit_code == 0);
  CHECK(git_lines(sandbox, store, outside(history, store, {"log", "--format=%s"})).size() >= 2);
  CHECK_THAT(sandbox.engram({"log", "--store", store.string()}).out,
             Catch::Contains("init: create engram store"));
  CHECK(git_out(sandbox, project, {"log", "--format=%s"}) == "project\n");
  CHECK(git_out(sandbox, store, outside(history, store, {"status", "--porcelain"})).empty());
}

TEST_CASE("the daemon keeps a store whose history is outside it, and commits only there") {
  const Sandbox sandbox;
  const fs::path project = project_repository(sandbox);
  const fs::path store = project / "memory";
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const fs::path history = history_of_store(sandbox, store);
  const fs::path config = sandbox.work("engram.toml");
  write_file(config, daemon_config("", ""));
  DaemonProcess daemon(sandbox, store, config);
  write_file(store / "WORKING.md", read_file(store / "WORKING.md") + "- [ ] agent's item\n");
  REQUIRE(wait_until(
      [&] {
        const auto log = sandbox.git(store, outside(history, store, {"log", "--format=%s"}));
        return log.out.find("snapshot:") != std::string::npos;
      },
      std::chrono::seconds(20)));
  REQUIRE(daemon.wait_idle_after(0, std::chrono::seconds(20)));
  CHECK(daemon.stop() == 0);
  CHECK(git_out(sandbox, project, {"log", "--format=%s"}) == "project\n");
  CHECK(git_out(sandbox, store, outside(history, store, {"status", "--porcelain"})).empty());
  const auto fsck = sandbox.git(store, outside(history, store, {"fsck", "--full", "--strict"}));
  CHECK(fsck.exit_code == 0);
}

TEST_CASE("a store whose HEAD is detached is refused, and no commit is left on no branch") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  git_out(sandbox, store, {"checkout", "-q", "--detach", "HEAD"});
  const auto commits = git_out(sandbox, store, {"log", "--all", "--format=%H"});
  write_file(store / "semantic" / "detached.md",
             "---\ntype: semantic\ntags: [git]\n---\n- Written while HEAD was detached.\n");
  const auto refused =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  CHECK(refused.exit_code != 0);
  CHECK_THAT(refused.err, Catch::Contains("HEAD is detached") &&
                              Catch::Contains("nothing was changed"));
  CHECK(git_out(sandbox, store, {"log", "--all", "--format=%H"}) == commits);
  CHECK(read_file(store / "semantic" / "detached.md").find("Written while HEAD") !=
        std::string::npos);
  // Back on the branch, the agent's file is committed as usual.
  git_out(sandbox, store, {"switch", "-q", "-"});
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_history_now});
  CHECK_THAT(git_out(sandbox, store, {"ls-files", "semantic"}),
             Catch::Contains("semantic/detached.md"));
}

TEST_CASE("a file written while the snapshot reads it is left for the next commit, never half") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  const fs::path file = store / "semantic" / "chunked.md";
  std::string head = "---\ntype: semantic\ntags: [import]\n---\n# Import log\n\n";
  std::string first;
  std::string rest;
  for (int i = 0; i < 200; ++i) {
    (i < 118 ? first : rest) += "- Batch " + std::to_string(i) + " of the import was checked.\n";
  }
  write_file(file, head + first);
  Run run(sandbox, "run", {"consolidate", "--store", store.string(), "--now", k_history_now},
          "after-read-for-staging");
  REQUIRE(run.wait_paused());
  write_file(file, head + first + rest); // the writer's next chunk lands mid-read
  run.resume();
  const auto done = run.finish();
  INFO(done.out << done.err);
  CHECK(done.exit_code == 0);
  const auto committed = sandbox.git(store, {"show", "HEAD:semantic/chunked.md"});
  if (committed.exit_code == 0) {
    CHECK(committed.out == head + first + rest); // whole, if at all
  }
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_history_now});
  CHECK_THAT(git_out(sandbox, store, {"show", "HEAD:semantic/chunked.md"}),
             Catch::Contains("Batch 199 of the import"));
  check_sound(sandbox, store);
}

TEST_CASE("an editor's backup an older engram committed leaves history once it is deleted") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  write_file(store / "semantic" / "shopify-api.md~", "an editor's backup\n");
  git_out(sandbox, store, {"add", "-f", "semantic/shopify-api.md~"});
  git_out(sandbox, store, {"commit", "-q", "-m", "a backup committed by an older engram"});
  // Changed, it is not committed again; deleted, its removal is.
  write_file(store / "semantic" / "shopify-api.md~", "an editor's newer backup\n");
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_history_now});
  CHECK_THAT(git_out(sandbox, store, {"show", "HEAD:semantic/shopify-api.md~"}),
             !Catch::Contains("newer"));
  fs::remove(store / "semantic" / "shopify-api.md~");
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_history_now});
  CHECK_THAT(git_out(sandbox, store, {"ls-files", "semantic"}), !Catch::Contains("~"));
}
