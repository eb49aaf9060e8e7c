// A file engram cannot read does not stop a consolidation: `engram
// consolidate` skips it with a `path: reason` diagnostic and consolidates
// everything else, as the daemon and `check` do. Run as an unprivileged user
// (root reads a mode 000 file): `setpriv` to nobody when the tests run as root.
#include "lib/history.hpp"
#include "lib/runs.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

constexpr const char* k_nobody = "65534";

// Gives every file under `root` to `owner` (a "uid:gid"), as root.
void give_to(const Sandbox& sandbox, const fs::path& root, const std::string& owner) {
  (void)sandbox;
  const auto given = run({"chown", "-R", owner, root.string()});
  INFO(given.err);
  REQUIRE(given.exit_code == 0);
}

// Runs engram with `args` as a user who cannot read a mode 000 file: nobody
// when this process is root (the sandbox given to nobody for the run), else
// this process's own user.
Result engram_unprivileged(const Sandbox& sandbox, const std::vector<std::string>& args) {
  if (::geteuid() != 0) {
    return sandbox.engram(args);
  }
  const fs::path top = sandbox.work().parent_path();
  give_to(sandbox, top, std::string(k_nobody) + ":" + k_nobody);
  std::vector<std::string> command{"setpriv",        std::string("--reuid=") + k_nobody,
                                   std::string("--regid=") + k_nobody, "--clear-groups",
                                   ENGRAM_BINARY};
  command.insert(command.end(), args.begin(), args.end());
  auto result = run(command, sandbox.engram_environment());
  give_to(sandbox, top, "0:0");
  return result;
}

} // namespace

TEST_CASE("consolidate skips a file it cannot read and consolidates the rest") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  git_out(sandbox, store, {"add", "-A"});
  git_out(sandbox, store, {"commit", "-q", "-m", "agent files"});
  const fs::path secret = store / "semantic" / "private.md";
  write_file(secret, "---\ntype: semantic\ntags: [private]\n---\n- Someone else's note.\n");
  git_out(sandbox, store, {"add", "-A"});
  git_out(sandbox, store, {"commit", "-q", "-m", "a private note"});
  // Changed since, and unreadable: git's status must read it to compare.
  write_file(secret, "---\ntype: semantic\ntags: [private]\n---\n- Someone else's note, edited.\n");
  fs::permissions(secret, fs::perms::none);
  const auto before = head_of(sandbox, store);

  const auto run = engram_unprivileged(
      sandbox, {"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(run.out << run.err);
  CHECK_THAT(run.err, !Catch::Contains("cannot read git status"));
  CHECK_THAT(run.err + run.out, Catch::Contains("semantic/private.md"));
  // The rest was consolidated: the expired episodes decayed, in a new commit.
  CHECK(head_of(sandbox, store) != before);
  for (const auto& expired : k_history_expired) {
    CHECK_FALSE(fs::exists(store / expired));
  }
  check_every_claim(store);
  fs::permissions(secret, fs::perms::owner_read | fs::perms::owner_write);
  CHECK_THAT(read_file(secret), Catch::Contains("edited")); // untouched
  // HEAD still has the file as it was committed: the edit waits until it can be read.
  CHECK_THAT(git_out(sandbox, store, {"show", "HEAD:semantic/private.md"}),
             !Catch::Contains("edited"));
}
