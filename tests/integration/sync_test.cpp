// Sharing a store through an ordinary git remote (`engram sync`): two
// machines, each a store of its own with a configuration naming one bare
// repository as its remote, read back with the `git` command.
#include "lib/daemon_process.hpp"
#include "lib/paused_run.hpp"
#include "lib/process.hpp"
#include "lib/stores.hpp"
#include "lib/sync_machines.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace fs = std::filesystem;
using engram::test::all_text;
using engram::test::as;
using engram::test::check_fsck;
using engram::test::deploys;
using engram::test::k_deploys;
using engram::test::Machine;
using engram::test::pre_receive_hook;
using engram::test::read_file;
using engram::test::Result;
using engram::test::Sandbox;
using engram::test::semantic_memory;
using engram::test::synced;
using engram::test::write_file;

namespace {

// A bare repository to share stores through.
fs::path bare_remote(const Sandbox& sandbox) {
  return engram::test::bare_remote(sandbox, sandbox.work("remote.git"));
}

// A machine sharing the bare repository at `remote`.
Machine machine(const Sandbox& sandbox, const std::string& name, const fs::path& remote,
                bool clone) {
  return engram::test::machine(sandbox, name, remote.string(), clone);
}

} // namespace

TEST_CASE("two machines sharing a remote both end with every claim either learned, "
          "merged claim by claim") {
  const Sandbox sandbox;
  const auto remote = bare_remote(sandbox);
  const auto laptop = machine(sandbox, "laptop", remote, false);
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch."}));
  const auto first = synced(sandbox, laptop);
  CHECK(first["pushed"] == true);
  CHECK(first["fetched"].is_null());

  const auto desk = machine(sandbox, "desk", remote, true);
  CHECK(read_file(desk.store / k_deploys) == read_file(laptop.store / k_deploys));

  // Both add a claim to the same file; the laptop shares first.
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch.",
                                                "The staging deploy takes 4 minutes."}));
  CHECK(synced(sandbox, laptop)["pushed"] == true);
  write_file(desk.store / k_deploys, deploys({"Deploys run from the release branch.",
                                              "Rollbacks need the on-call engineer's approval."}));
  const auto merged = synced(sandbox, desk);
  INFO(merged.dump(2));
  CHECK(merged["merge"] == "merge");
  CHECK(merged["pushed"] == true);
  const auto back = synced(sandbox, laptop);
  CHECK(back["merge"] == "fast-forward");

  for (const auto* m : {&laptop, &desk}) {
    const auto body = read_file(m->store / k_deploys);
    INFO(m->store.string() << "\n" << body);
    CHECK_THAT(body, Catch::Contains("- The staging deploy takes 4 minutes."));
    CHECK_THAT(body, Catch::Contains("- Rollbacks need the on-call engineer's approval."));
    CHECK_THAT(body, Catch::Contains("- Deploys run from the release branch."));
    const auto text = all_text(m->store);
    CHECK(text.find("<<<<<<<") == std::string::npos);
    CHECK(text.find(">>>>>>>") == std::string::npos);
    check_fsck(sandbox, m->store);
    CHECK(sandbox.git(m->store, {"status", "--porcelain"}).out.empty());
  }
  check_fsck(sandbox, remote);
  // The merge is a commit with both sides as parents, saying where it came from.
  const auto parents =
      sandbox.git(desk.store, {"log", "-1", "--format=%P", "--grep", "^sync: merge"}).out;
  CHECK(std::count(parents.begin(), parents.end(), ' ') == 1);
  const auto message = sandbox
                           .git(desk.store, {"log", "-1", "--format=%B%N", "--notes=engram",
                                             "--grep", "^sync: merge"})
                           .out;
  CHECK_THAT(message, Catch::Contains("Engram-Machine: desk"));
  CHECK_THAT(message, Catch::Contains("Engram-Merged: "));
  CHECK_THAT(message, Catch::Contains("Rollbacks") || Catch::Contains("staging deploy"));
  CHECK(sandbox.git(laptop.store, {"rev-parse", "HEAD"}).out ==
        sandbox.git(desk.store, {"rev-parse", "HEAD"}).out);
}

TEST_CASE("a remote whose history was rewritten is refused, naming both tips, "
          "and nothing local is touched") {
  const Sandbox sandbox;
  const auto remote = bare_remote(sandbox);
  const auto laptop = machine(sandbox, "laptop", remote, false);
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch."}));
  synced(sandbox, laptop);
  // Someone else replaces the remote's history with one of their own.
  const auto other = sandbox.work("other");
  REQUIRE(
      sandbox.git(sandbox.work(), {"init", "--quiet", "-b", "main", other.string()}).exit_code ==
      0);
  write_file(other / "README.md", "a different history\n");
  REQUIRE(sandbox.git(other, {"add", "-A"}).exit_code == 0);
  REQUIRE(sandbox.git(other, {"commit", "--quiet", "-m", "start over"}).exit_code == 0);
  REQUIRE(
      sandbox.git(other, {"push", "--quiet", "--force", remote.string(), "main:main"}).exit_code ==
      0);

  const auto head = sandbox.git(laptop.store, {"rev-parse", "HEAD"}).out;
  const auto tip = sandbox.git(remote, {"rev-parse", "main"}).out;
  const auto run =
      as(sandbox, laptop,
         {"sync", "--store", laptop.store.string(), "--now", engram::test::k_sync_now});
  INFO(run.err);
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::Contains("was rewritten"));
  CHECK_THAT(run.err, Catch::Contains(tip.substr(0, 12)));
  CHECK_THAT(run.err, Catch::Contains(head.substr(0, 12)));
  CHECK(sandbox.git(laptop.store, {"rev-parse", "HEAD"}).out == head);
  CHECK(sandbox.git(remote, {"rev-parse", "main"}).out == tip);
  CHECK_THAT(read_file(laptop.store / k_deploys),
             Catch::Contains("Deploys run from the release branch."));
}

TEST_CASE("a push refused as the remote goes away reports both the refusal and the failed "
          "fetch after it") {
  const Sandbox sandbox;
  const auto remote = bare_remote(sandbox);
  const auto laptop = machine(sandbox, "laptop", remote, false);
  synced(sandbox, laptop);
  // The hook declines the push and takes the repository away, as a server
  // killed mid-push can: the round's fetch for what beat its push then fails.
  const auto gone = sandbox.work("gone.git");
  pre_receive_hook(remote, "mv '" + remote.string() + "' '" + gone.string() + "'\nexit 1\n");
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch."}));
  const auto round =
      as(sandbox, laptop,
         {"sync", "--store", laptop.store.string(), "--now", engram::test::k_sync_now});
  INFO(round.err);
  CHECK(round.exit_code == 1);
  CHECK_THAT(round.err,
             Catch::Contains("cannot push to") && Catch::Contains("; then cannot reach"));
  // The commit waits in the store for the next round.
  CHECK(sandbox.git(laptop.store, {"show", "HEAD:" + k_deploys}).out.find("release branch") !=
        std::string::npos);
  CHECK(sandbox.git(laptop.store, {"status", "--porcelain"}).out.empty());
}

TEST_CASE("a push the remote refuses, or a remote out of reach, is reported and the commits "
          "wait for the next round") {
  const Sandbox sandbox;
  const auto remote = bare_remote(sandbox);
  const auto laptop = machine(sandbox, "laptop", remote, false);
  synced(sandbox, laptop);
  pre_receive_hook(remote, "echo 'frozen for the audit' >&2\nexit 1\n");
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch."}));
  const auto refused =
      as(sandbox, laptop,
         {"sync", "--store", laptop.store.string(), "--now", engram::test::k_sync_now});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("frozen for the audit"));
  CHECK_THAT(refused.err, Catch::Contains("the remote refused it"));

  fs::remove(remote / "hooks" / "pre-receive");
  fs::rename(remote, sandbox.work("moved.git"));
  const auto unreachable =
      as(sandbox, laptop,
         {"sync", "--store", laptop.store.string(), "--now", engram::test::k_sync_now});
  CHECK(unreachable.exit_code == 1);
  CHECK_THAT(unreachable.err, Catch::Contains("cannot reach"));

  fs::rename(sandbox.work("moved.git"), remote);
  CHECK(synced(sandbox, laptop)["pushed"] == true);
  const auto pushed = sandbox.git(remote, {"show", "main:" + k_deploys});
  CHECK_THAT(pushed.out, Catch::Contains("Deploys run from the release branch."));
}

TEST_CASE("a daemon with git.sync pushes what it commits and merges what another machine "
          "pushed while it was idle") {
  using namespace std::chrono_literals;
  const Sandbox sandbox;
  const auto remote = bare_remote(sandbox);
  const auto root = sandbox.work("store");
  const auto made = engram::test::daemon_store(
      sandbox, "[[store]]\npath = \"" + root.string() + "\"\ngit.remote = \"" + remote.string() +
                   "\"\ngit.branch = \"main\"\ngit.sync = true\ngit.sync_interval_s = 1\n"
                   "git.machine = \"laptop\"\n");
  engram::test::DaemonProcess daemon(sandbox, made.store, made.config);
  const auto remote_tip = [&] {
    return sandbox.git(remote, {"rev-parse", "--verify", "-q", "main"}).out;
  };
  // The history it had is pushed by the first round, at start.
  INFO(daemon.log());
  REQUIRE(engram::test::wait_until([&] { return !remote_tip().empty(); }, 20s));

  // What the agent writes is committed, and pushed.
  write_file(made.store / k_deploys, deploys({"Deploys run from the release branch."}));
  REQUIRE(engram::test::wait_until(
      [&] {
        return sandbox.git(remote, {"show", "main:" + k_deploys}).out.find("release branch") !=
               std::string::npos;
      },
      20s));

  // A second machine adds a claim to the same file and shares it by hand;
  // the daemon's idle round brings it in.
  const auto desk = machine(sandbox, "desk", remote, true);
  write_file(desk.store / k_deploys, deploys({"Deploys run from the release branch.",
                                              "Rollbacks need the on-call engineer's approval."}));
  synced(sandbox, desk);
  REQUIRE(engram::test::wait_until(
      [&] { return read_file(made.store / k_deploys).find("Rollbacks need") != std::string::npos; },
      20s));
  CHECK(daemon.stop() == 0);
  CHECK(sandbox.git(made.store, {"status", "--porcelain"}).out.empty());
  check_fsck(sandbox, made.store);
  const auto log = sandbox.git(made.store, {"log", "--format=%B"}).out;
  CHECK_THAT(log, Catch::Contains("Engram-Machine: laptop"));
}

TEST_CASE("a clone made while a consolidation is running is a sound store, and every machine "
          "ends with every claim") {
  const Sandbox sandbox;
  const auto remote = bare_remote(sandbox);
  const auto laptop = machine(sandbox, "laptop", remote, false);
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch."}));
  synced(sandbox, laptop);
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch.",
                                                "The staging deploy takes 4 minutes."}));
  // The consolidation stops with its changes written and not yet committed.
  engram::test::Run run(sandbox, "consolidate",
                        {"--config", laptop.config.string(), "consolidate", "--store",
                         laptop.store.string(), "--now", engram::test::k_sync_now},
                        "after-pending");
  REQUIRE(run.wait_paused());

  // Meanwhile a teammate clones the remote, and someone copies the laptop's store with git.
  const auto desk = machine(sandbox, "desk", remote, true);
  const auto copy = sandbox.work("copy");
  const auto cloned =
      sandbox.git(sandbox.work(), {"clone", "--quiet", laptop.store.string(), copy.string()});
  INFO(cloned.err);
  REQUIRE(cloned.exit_code == 0);
  check_fsck(sandbox, copy);
  CHECK(sandbox.git(copy, {"status", "--porcelain"}).out.empty());
  write_file(desk.store / k_deploys, deploys({"Deploys run from the release branch.",
                                              "Rollbacks need the on-call engineer's approval."}));
  CHECK(synced(sandbox, desk)["pushed"] == true);

  run.resume();
  const auto finished = run.finish();
  INFO(finished.out << finished.err);
  REQUIRE(finished.exit_code == 0);
  CHECK(synced(sandbox, laptop)["merge"] == "merge");
  CHECK(synced(sandbox, desk)["merge"] == "fast-forward");
  for (const auto* m : {&laptop, &desk}) {
    const auto body = read_file(m->store / k_deploys);
    INFO(m->store.string() << "\n" << body);
    CHECK_THAT(body, Catch::Contains("- The staging deploy takes 4 minutes."));
    CHECK_THAT(body, Catch::Contains("- Rollbacks need the on-call engineer's approval."));
    engram::test::check_no_conflict_markers(m->store);
    check_fsck(sandbox, m->store);
  }
  check_fsck(sandbox, remote);
}

TEST_CASE("a push that loses a race to another machine's merges what that machine pushed and "
          "pushes again in the same round") {
  const Sandbox sandbox;
  const auto remote = bare_remote(sandbox);
  const auto laptop = machine(sandbox, "laptop", remote, false);
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch."}));
  synced(sandbox, laptop);
  // The desk's commit waits on a side branch of the remote; the hook moves
  // main to it as the laptop's push arrives, as the desk's push landing
  // first would (writing the ref's file: git forbids ref updates in hooks).
  const auto desk = machine(sandbox, "desk", remote, true);
  write_file(desk.store / k_deploys, deploys({"Deploys run from the release branch.",
                                              "Rollbacks need the on-call engineer's approval."}));
  REQUIRE(as(sandbox, desk,
             {"consolidate", "--store", desk.store.string(), "--now", engram::test::k_sync_now})
              .exit_code == 0);
  REQUIRE(sandbox.git(desk.store, {"push", "--quiet", remote.string(), "HEAD:refs/heads/desk"})
              .exit_code == 0);
  const auto raced = sandbox.work("raced");
  write_file(remote / "hooks" / "pre-receive",
             "#!/bin/sh\nif [ ! -e '" + raced.string() + "' ]; then\n  : > '" + raced.string() +
                 "'\n  git rev-parse refs/heads/desk > refs/heads/main\nfi\n");
  fs::permissions(remote / "hooks" / "pre-receive", fs::perms::owner_all);

  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch.",
                                                "The staging deploy takes 4 minutes."}));
  const auto round = synced(sandbox, laptop);
  INFO(round.dump(2));
  CHECK(fs::exists(raced));
  CHECK(round["pushed"] == true);
  CHECK(round["merge"] == "merge");
  const auto pushed = sandbox.git(remote, {"show", "main:" + k_deploys}).out;
  CHECK_THAT(pushed, Catch::Contains("- The staging deploy takes 4 minutes."));
  CHECK_THAT(pushed, Catch::Contains("- Rollbacks need the on-call engineer's approval."));
  CHECK(sandbox.git(remote, {"rev-parse", "main"}).out ==
        sandbox.git(laptop.store, {"rev-parse", "HEAD"}).out);
  check_fsck(sandbox, remote);
}
