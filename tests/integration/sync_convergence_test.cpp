// Three machines share one remote, each store kept by its own daemon: their
// agents write at the same time for 50 rounds, to files of their own and to
// one file they all write, while the daemons consolidate and sync on their
// own. At the end every line written anywhere is live on every machine,
// once; no conflict marker anywhere; git fsck finds nothing wrong on any
// machine nor on the remote; and every machine's log reads as a history.
// The remote is served by OpenSSH's sshd when it is installed, else by path.
#include "lib/daemon_process.hpp"
#include "lib/git_servers.hpp"
#include "lib/line_writer.hpp"
#include "lib/occurrences.hpp"
#include "lib/sync_machines.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace engram::test;

namespace {

constexpr std::size_t k_rounds = 50;
const std::string k_shared = "semantic/shared-runbook.md";

// The marker of round `n` of machine `name` in file `file` ("s" shared, "o" own).
std::string marker(const std::string& name, const std::string& file, std::size_t n) {
  return "sy" + name + file + "x" + letters(n) + "q";
}

// The file of machine `name`'s own notes.
std::string own_file(const std::string& name) {
  return "semantic/" + name + "-notes.md";
}

// Whether `text` is in the file `path` of HEAD's tree in `store`.
bool committed(const Sandbox& sandbox, const fs::path& store, const std::string& path,
               const std::string& text) {
  return sandbox.git(store, {"show", "HEAD:" + path}).out.find(text) != std::string::npos;
}

} // namespace

TEST_CASE("three machines with their own daemons write the same files for 50 rounds and all end "
          "with every claim, merged claim by claim") {
  const Sandbox sandbox;
  const auto bare = bare_remote(sandbox, sandbox.work("server/team.git"));
  std::unique_ptr<SshGitServer> server;
  std::string url = bare.string();
  if (const auto why = SshGitServer::unavailable()) {
    WARN("the remote is a path, not sshd: " << *why);
  } else {
    server = std::make_unique<SshGitServer>(sandbox, sandbox.work("server"));
    url = server->url("team.git");
  }
  const std::vector<std::string> names{"laptop", "desk", "build"};
  std::vector<Machine> machines;
  for (const auto& name : names) {
    machines.push_back(machine(sandbox, name, url, !machines.empty(), "git.sync_interval_s = 1\n"));
    write_file(machines.back().config, read_file(machines.back().config) + daemon_config("", ""));
    if (machines.size() == 1) {
      write_file(machines[0].store / k_shared,
                 semantic_memory({"runbook"}, "2026-01-05", "# Shared runbook\n\n"));
      synced(sandbox, machines[0]);
    }
    write_file(machines.back().store / own_file(name),
               semantic_memory({name}, "2026-01-05", "# Notes of " + name + "\n\n"));
  }
  std::vector<std::unique_ptr<DaemonProcess>> daemons;
  for (const auto& m : machines) {
    daemons.push_back(std::make_unique<DaemonProcess>(sandbox, m.store, m.config));
  }

  // Each machine's agent: a line to the shared file and one to its own each
  // round, then waits until its daemon has committed them (its daemon merges
  // the others' lines in meanwhile, into the same file).
  std::atomic<int> failures{0};
  std::vector<std::thread> agents;
  for (std::size_t i = 0; i < machines.size(); ++i) {
    agents.emplace_back([&, i] {
      const auto& m = machines[i];
      for (std::size_t n = 0; n < k_rounds && failures == 0; ++n) {
        const auto shared = marker(names[i], "s", n);
        const auto own = marker(names[i], "o", n);
        if (!append_line(m.store / k_shared, "- Plain fact " + shared + " holds.\n") ||
            !append_line(m.store / own_file(names[i]), "- Plain fact " + own + " holds.\n") ||
            !wait_until(
                [&] {
                  return committed(sandbox, m.store, k_shared, shared) &&
                         committed(sandbox, m.store, own_file(names[i]), own);
                },
                60s, 200ms)) {
          ++failures;
        }
      }
    });
  }
  for (auto& agent : agents) {
    agent.join();
  }
  REQUIRE(failures == 0);

  // The end: every machine at the remote's tip, nothing pending, nothing uncommitted.
  const bool agreed = wait_until(
      [&] {
        const auto tip = sandbox.git(bare, {"rev-parse", "main"}).out;
        for (std::size_t i = 0; i < machines.size(); ++i) {
          const auto status = daemons[i]->store_status();
          if (sandbox.git(machines[i].store, {"rev-parse", "HEAD"}).out != tip ||
              !sandbox.git(machines[i].store, {"status", "--porcelain"}).out.empty() ||
              status.value("state", "") != "idle" || status.value("pending_changes", 1) != 0) {
            return false;
          }
        }
        return true;
      },
      120s, 200ms);
  for (const auto& daemon : daemons) {
    INFO(daemon->log());
  }
  REQUIRE(agreed);

  for (std::size_t i = 0; i < machines.size(); ++i) {
    const auto& m = machines[i];
    INFO(m.store.string());
    const auto shared = read_file(m.store / k_shared);
    for (const auto& name : names) {
      const auto own = read_file(m.store / own_file(name));
      for (std::size_t n = 0; n < k_rounds; ++n) {
        CHECK(occurrences(shared, marker(name, "s", n)) == 1);
        CHECK(occurrences(own, marker(name, "o", n)) == 1);
      }
    }
    check_no_conflict_markers(m.store);
    check_fsck(sandbox, m.store);
    // The log reads as a history: every commit has a subject, the merges say
    // where they came from, and the trailers name the machine.
    const auto log = sandbox.git(m.store, {"log", "--format=%s", "--notes=engram"});
    REQUIRE(log.exit_code == 0);
    for (const auto& subject : log.out_lines()) {
      CHECK_FALSE(subject.empty());
    }
    CHECK(sandbox.git(m.store, {"log", "--format=%b"}).out.find("Engram-Machine: " + names[i]) !=
          std::string::npos);
  }
  const auto subjects = sandbox.git(bare, {"log", "--format=%s", "main"}).out;
  const auto merges = occurrences(subjects, "sync: merge");
  std::cout << fmt::format("three machines, {} rounds: {} commits on the remote, {} of them "
                           "merges\n",
                           k_rounds, occurrences(subjects, "\n"), merges);
  CHECK(merges >= 1);
  check_fsck(sandbox, bare);
  for (auto& daemon : daemons) {
    CHECK(daemon->stop() == 0);
  }
}
