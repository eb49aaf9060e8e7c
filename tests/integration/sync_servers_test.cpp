// Sharing a store through real git servers started on 127.0.0.1: OpenSSH's
// sshd with git-shell, and git's smart HTTP behind lighttpd with a password
// that only git's credential helper knows. Then the faults a network brings:
// the server killed while a push or a fetch is under way, with `engram sync`
// and with the daemon, which keeps running and says what happened.
#include "lib/daemon_process.hpp"
#include "lib/git_servers.hpp"
#include "lib/paused_run.hpp"
#include "lib/sync_machines.hpp"

#include <catch2/catch.hpp>
#include <string>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace engram::test;

namespace {

// Says why a server test cannot run here, in the test's output.
bool skipped(const std::optional<std::string>& why) {
  if (why) {
    WARN("skipped: " << *why);
    return true;
  }
  return false;
}

// Two machines share `url` (the bare repository at `bare`): both add a claim
// to one file, each syncs, and both end with every claim, merged claim by claim.
void share_between_two(const Sandbox& sandbox, const std::string& url, const fs::path& bare) {
  const auto laptop = machine(sandbox, "laptop", url, false);
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch."}));
  CHECK(synced(sandbox, laptop)["pushed"] == true);
  const auto desk = machine(sandbox, "desk", url, true);
  CHECK(read_file(desk.store / k_deploys) == read_file(laptop.store / k_deploys));

  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch.",
                                                "The staging deploy takes 4 minutes."}));
  CHECK(synced(sandbox, laptop)["pushed"] == true);
  write_file(desk.store / k_deploys, deploys({"Deploys run from the release branch.",
                                              "Rollbacks need the on-call engineer's approval."}));
  const auto merged = synced(sandbox, desk);
  INFO(merged.dump(2));
  CHECK(merged["merge"] == "merge");
  CHECK(merged["pushed"] == true);
  CHECK(synced(sandbox, laptop)["merge"] == "fast-forward");
  for (const auto* m : {&laptop, &desk}) {
    const auto body = read_file(m->store / k_deploys);
    INFO(m->store.string() << "\n" << body);
    CHECK_THAT(body, Catch::Contains("- The staging deploy takes 4 minutes."));
    CHECK_THAT(body, Catch::Contains("- Rollbacks need the on-call engineer's approval."));
    CHECK_THAT(body, Catch::Contains("- Deploys run from the release branch."));
    check_no_conflict_markers(m->store);
    check_fsck(sandbox, m->store);
    // engram keeps no credential: the remote is the URL as configured.
    CHECK(sandbox.git(m->store, {"config", "--get", "remote.origin.url"})
              .out.find(HttpGitServer::k_password) == std::string::npos);
    CHECK(all_text(m->store).find(HttpGitServer::k_password) == std::string::npos);
  }
  check_fsck(sandbox, bare);
  CHECK(sandbox.git(laptop.store, {"rev-parse", "HEAD"}).out ==
        sandbox.git(bare, {"rev-parse", "main"}).out);
}

} // namespace

TEST_CASE("two machines share a store through OpenSSH's sshd and git-shell") {
  if (skipped(SshGitServer::unavailable())) {
    return;
  }
  const Sandbox sandbox;
  const auto bare = bare_remote(sandbox, sandbox.work("server/team.git"));
  SshGitServer server(sandbox, sandbox.work("server"));
  share_between_two(sandbox, server.url("team.git"), bare);
}

TEST_CASE("two machines share a store through git's smart HTTP behind lighttpd, the password "
          "given by git's credential helper") {
  if (skipped(HttpGitServer::unavailable())) {
    return;
  }
  const Sandbox sandbox;
  const auto bare = bare_remote(sandbox, sandbox.work("server/team.git"));
  HttpGitServer server(sandbox, sandbox.work("server"));
  share_between_two(sandbox, server.url("team.git"), bare);
}

TEST_CASE("the server killed while a push is under way: the sync says so, the commit waits, and "
          "the next round pushes it") {
  if (skipped(SshGitServer::unavailable())) {
    return;
  }
  const Sandbox sandbox;
  const auto bare = bare_remote(sandbox, sandbox.work("server/team.git"));
  SshGitServer server(sandbox, sandbox.work("server"));
  const auto laptop = machine(sandbox, "laptop", server.url("team.git"), false);
  synced(sandbox, laptop);
  const auto before = sandbox.git(bare, {"rev-parse", "main"}).out;

  // The pack is on the server when the hook runs: the push is half done.
  const auto release = sandbox.work("release"); // the hook waits while it exists
  const auto waiting = sandbox.work("receiving");
  write_file(release, "");
  pre_receive_hook(bare, ": > '" + waiting.string() + "'\nwhile [ -e '" + release.string() +
                             "' ]; do sleep 0.02; done\n");
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch."}));
  Run push(sandbox, "push",
           {"--config", laptop.config.string(), "sync", "--store", laptop.store.string(), "--now",
            k_sync_now});
  REQUIRE(wait_until([&] { return fs::exists(waiting); }, 30s));
  server.kill();
  const auto cut = push.finish();
  INFO(cut.out << cut.err);
  CHECK(cut.exit_code == 1);
  CHECK_THAT(cut.err, Catch::Contains("push"));
  CHECK(sandbox.git(bare, {"rev-parse", "main"}).out == before);
  const auto head = sandbox.git(laptop.store, {"rev-parse", "HEAD"}).out;
  CHECK(sandbox.git(laptop.store, {"show", "HEAD:" + k_deploys}).out.find("release branch") !=
        std::string::npos);
  CHECK(sandbox.git(laptop.store, {"status", "--porcelain"}).out.empty());
  const auto status = as(sandbox, laptop, {"status", "--store", laptop.store.string(), "--json"});
  const auto sync = nlohmann::json::parse(status.out).at("sync");
  CHECK_FALSE(sync.at("problem").get<std::string>().empty());
  CHECK(sync.at("ahead").get<int>() >= 1);

  fs::remove(release);
  fs::remove(bare / "hooks" / "pre-receive");
  server.restart();
  CHECK(synced(sandbox, laptop)["pushed"] == true);
  CHECK(sandbox.git(bare, {"rev-parse", "main"}).out == head);
  check_fsck(sandbox, bare);
  check_fsck(sandbox, laptop.store);
}

TEST_CASE("the server killed while a fetch is under way: nothing local changes, and the next "
          "round merges") {
  if (skipped(SshGitServer::unavailable())) {
    return;
  }
  const Sandbox sandbox;
  const auto bare = bare_remote(sandbox, sandbox.work("server/team.git"));
  SshGitServer server(sandbox, sandbox.work("server"));
  const auto laptop = machine(sandbox, "laptop", server.url("team.git"), false);
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch."}));
  synced(sandbox, laptop);
  const auto desk = machine(sandbox, "desk", server.url("team.git"), true);
  write_file(laptop.store / k_deploys, deploys({"Deploys run from the release branch.",
                                                "The staging deploy takes 4 minutes."}));
  synced(sandbox, laptop);
  write_file(desk.store / k_deploys, deploys({"Deploys run from the release branch.",
                                              "Rollbacks need the on-call engineer's approval."}));
  // The desk's own edit is committed before it fetches; record where it stands then.
  as(sandbox, desk, {"consolidate", "--store", desk.store.string(), "--now", k_sync_now});
  const auto head = sandbox.git(desk.store, {"rev-parse", "HEAD"}).out;
  const auto body = read_file(desk.store / k_deploys);

  const auto release = sandbox.work("release");
  const auto waiting = sandbox.work("serving");
  write_file(release, "");
  server.stall(release, waiting);
  Run fetch(sandbox, "fetch",
            {"--config", desk.config.string(), "sync", "--store", desk.store.string(), "--now",
             k_sync_now});
  REQUIRE(wait_until([&] { return fs::exists(waiting); }, 30s));
  server.kill();
  const auto cut = fetch.finish();
  INFO(cut.out << cut.err);
  CHECK(cut.exit_code == 1);
  CHECK_THAT(cut.err, Catch::Contains("cannot reach"));
  CHECK(sandbox.git(desk.store, {"rev-parse", "HEAD"}).out == head);
  CHECK(read_file(desk.store / k_deploys) == body);
  CHECK(sandbox.git(desk.store, {"status", "--porcelain"}).out.empty());

  fs::remove(release);
  server.restart();
  CHECK(synced(sandbox, desk)["merge"] == "merge");
  const auto merged = read_file(desk.store / k_deploys);
  CHECK_THAT(merged, Catch::Contains("- The staging deploy takes 4 minutes."));
  CHECK_THAT(merged, Catch::Contains("- Rollbacks need the on-call engineer's approval."));
  check_no_conflict_markers(desk.store);
  check_fsck(sandbox, desk.store);
  check_fsck(sandbox, bare);
}

TEST_CASE("a daemon whose server goes away keeps running, says why in its log and status, and "
          "pushes what waited once the server is back") {
  if (skipped(SshGitServer::unavailable())) {
    return;
  }
  const Sandbox sandbox;
  const auto bare = bare_remote(sandbox, sandbox.work("server/team.git"));
  SshGitServer server(sandbox, sandbox.work("server"));
  const auto root = sandbox.work("store");
  const auto made = daemon_store(
      sandbox, "[[store]]\npath = \"" + root.string() + "\"\ngit.remote = \"" +
                   server.url("team.git") +
                   "\"\ngit.branch = \"main\"\ngit.sync = true\ngit.sync_interval_s = 1\n"
                   "git.machine = \"laptop\"\n");
  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto remote_has = [&](const std::string& text) {
    return sandbox.git(bare, {"show", "main:" + k_deploys}).out.find(text) != std::string::npos;
  };
  REQUIRE(wait_until(
      [&] {
        return !sandbox.git(bare, {"rev-parse", "--verify", "-q", "main"}).out.empty();
      },
      30s));

  server.kill();
  write_file(made.store / k_deploys, deploys({"Deploys run from the release branch."}));
  const auto problem = [&] {
    const auto status = sandbox.engram(
        {"--config", made.config.string(), "status", "--store", made.store.string(), "--json"});
    const auto sync = nlohmann::json::parse(status.out).at("sync");
    return sync.is_object() ? sync.at("problem").get<std::string>() : std::string();
  };
  REQUIRE(wait_until(
      [&] {
        return sandbox.git(made.store, {"log", "-1", "--format=%s", "--", k_deploys}).out.size() >
                   0 &&
               !problem().empty();
      },
      30s));
  INFO(daemon.log());
  CHECK_THAT(problem(), Catch::Contains("cannot reach"));
  CHECK_THAT(daemon.log(), Catch::Contains("sync: "));
  CHECK(daemon.store_status().value("state", "") != "");

  server.restart();
  REQUIRE(wait_until([&] { return remote_has("release branch"); }, 60s));
  REQUIRE(wait_until([&] { return problem().empty(); }, 30s));
  CHECK(daemon.stop() == 0);
  check_fsck(sandbox, bare);
  check_fsck(sandbox, made.store);
}
