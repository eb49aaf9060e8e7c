// The secrets guard with the real binary and the real git: a file of the
// agent's that looks like it holds a credential is held back from every
// commit (snapshots, adopting a folder), reported by path, line and kind and
// never by its content, left on disk as it is, and committed by the first
// snapshot after the credential is gone. The other files go on as usual.
#include "lib/history.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// Credentials no test store would hold by accident; each must never reach git.
const std::string k_aws_key = "AKIAQZ7XW2M4KJ3PLR5T";
const std::string k_github_token = "ghp_Zq8Xw3Vb7Nm2Lk9Jh4Gf6Ds1Ap5Oi0Uy8Tr3E";
const std::string k_private_key_line = "-----BEGIN OPENSSH PRIVATE KEY-----";

// A store whose agent files are committed, so the next commit holds only what a test does.
fs::path committed_store(const Sandbox& sandbox) {
  const fs::path store = make_history_store(sandbox);
  git_out(sandbox, store, {"add", "-A"});
  git_out(sandbox, store, {"commit", "-q", "-m", "agent files"});
  return store;
}

// Checks that `text` appears in no commit of the store: no commit's diff, no
// file of any commit, no commit message.
void check_in_no_commit(const Sandbox& sandbox, const fs::path& store, const std::string& text) {
  INFO("never committed: " << text);
  CHECK_THAT(git_out(sandbox, store, {"log", "--all", "-p", "--stat", "--format=%H%n%B"}),
             !Catch::Contains(text));
  const auto grep = sandbox.git(store, {"grep", "-F", "-e", text, "HEAD"});
  CHECK(grep.exit_code == 1); // found nowhere in HEAD's tree
  for (const auto& commit : git_lines(sandbox, store, {"rev-list", "--all"})) {
    CHECK(sandbox.git(store, {"grep", "-F", "-q", "-e", text, commit}).exit_code == 1);
  }
}

// Checks that `text` is in no object of the repository at all: the check ran
// before staging, so not even a dangling blob holds it.
void check_in_no_object(const Sandbox& sandbox, const fs::path& store, const std::string& text) {
  INFO("in no object: " << text);
  const auto objects =
      sandbox.git(store, {"cat-file", "--batch-all-objects", "--batch", "--unordered"});
  REQUIRE(objects.exit_code == 0);
  CHECK_THAT(objects.out, !Catch::Contains(text));
}

} // namespace

TEST_CASE("a file that looks like it holds a credential is held back from the snapshot while "
          "the others are committed") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  const std::string before = head_of(sandbox, store);

  const std::string deploy = semantic_memory({"aws", "deploy"}, "2026-11-21",
                                             "- Deploys go through the staging account.\n"
                                             "- aws_access_key_id = " +
                                                 k_aws_key + "\n");
  const std::string notes = "Notes about CI.\n\nThe bot token is " + k_github_token + "\n";
  write_file(store / "semantic" / "deploy.md", deploy);
  write_file(store / "notes.txt", notes);
  write_file(store / "semantic" / "new-fact.md",
             semantic_memory({"sqlite", "wal"}, "2026-11-21", "- WAL mode allows one writer.\n"));
  write_file(store / "WORKING.md", read_file(store / "WORKING.md") + "- [ ] rotate the key\n");

  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);

  // Reported by path, line and kind, never by content.
  CHECK_THAT(result.err, Catch::Contains((store / "semantic" / "deploy.md").string() +
                                         ":14: looks like an AWS access key id; held back") &&
                             Catch::Contains((store / "notes.txt").string() +
                                             ":3: looks like a GitHub token; held back"));
  CHECK_THAT(result.out + result.err,
             !Catch::Contains(k_aws_key) && !Catch::Contains(k_github_token));

  // The snapshot holds the other two files, and only them; then the consolidation.
  const auto subjects = git_lines(sandbox, store, {"log", "--format=%s", before + "..HEAD"});
  REQUIRE(subjects.size() == 2);
  CHECK(subjects[1] == "snapshot: 2 files changed by the agent");
  CHECK(git_out(sandbox, store, {"show", "--format=", "--name-status", "HEAD~1"}) ==
        "M\tWORKING.md\nA\tsemantic/new-fact.md\n");
  CHECK(subjects[0].starts_with("consolidate(full):"));
  check_every_claim(store);

  // Untouched on disk, and out of every commit and every object.
  CHECK(read_file(store / "semantic" / "deploy.md") == deploy);
  CHECK(read_file(store / "notes.txt") == notes);
  for (const auto& secret : {k_aws_key, k_github_token}) {
    check_in_no_commit(sandbox, store, secret);
    check_in_no_object(sandbox, store, secret);
  }
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}) ==
        "?? notes.txt\n?? semantic/deploy.md\n");
  const auto fsck = sandbox.git(store, {"fsck", "--full", "--strict"});
  CHECK(fsck.exit_code == 0);

  // Another run reports them again and commits nothing new of them.
  const std::string consolidated = head_of(sandbox, store);
  const auto again =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.err, Catch::Contains("deploy.md:14: looks like an AWS access key id"));
  CHECK(head_of(sandbox, store) == consolidated);

  // With the credential gone, the next snapshot commits the file.
  const std::string cleaned = semantic_memory({"aws", "deploy"}, "2026-11-21",
                                              "- Deploys go through the staging account.\n"
                                              "- The access key lives in the vault.\n");
  write_file(store / "semantic" / "deploy.md", cleaned);
  const auto later =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(later.out << later.err);
  REQUIRE(later.exit_code == 0);
  CHECK_THAT(later.err, !Catch::Contains("deploy.md:") && Catch::Contains("notes.txt:3:"));
  const auto stat =
      git_out(sandbox, store, {"log", "--stat", "--format=%s", consolidated + "..HEAD"});
  CHECK_THAT(stat, Catch::Contains("snapshot: 1 file changed by the agent") &&
                       Catch::Contains("semantic/deploy.md") && !Catch::Contains("notes.txt"));
  CHECK(git_out(sandbox, store, {"show", "HEAD:semantic/deploy.md"}) == cleaned);
  check_in_no_commit(sandbox, store, k_aws_key);
  check_in_no_commit(sandbox, store, k_github_token);
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}) == "?? notes.txt\n");
}

TEST_CASE("an edit that adds a credential to a committed file is held back and HEAD keeps the "
          "old version") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  const fs::path file = store / "reference" / "systems.md";
  const std::string committed = read_file(file);
  const std::string edited = committed + "\nThe deploy key:\n\n" + k_private_key_line +
                             "\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n";
  write_file(file, edited);
  write_file(store / "semantic" / "new-fact.md",
             semantic_memory({"sqlite", "wal"}, "2026-11-21", "- WAL mode allows one writer.\n"));

  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("reference/systems.md:13: looks like a private key"));
  CHECK(read_file(file) == edited);
  CHECK(git_out(sandbox, store, {"show", "HEAD:reference/systems.md"}) == committed);
  check_in_no_commit(sandbox, store, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ");
  check_in_no_object(sandbox, store, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ");
  // Git sees the edit waiting, and compares content, not a stale timestamp.
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}) == " M reference/systems.md\n");
  CHECK(git_out(sandbox, store, {"diff", "--stat"}).find("reference/systems.md") !=
        std::string::npos);
}

TEST_CASE("a credential the user staged with git add is kept out of the snapshot too") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  const std::string text = "Slack bot: xoxb-1234567890-abcdefghijKLMNOP\n";
  write_file(store / "reference" / "slack.md", text);
  git_out(sandbox, store, {"add", "reference/slack.md"});
  write_file(store / "semantic" / "new-fact.md",
             semantic_memory({"sqlite", "wal"}, "2026-11-21", "- WAL mode allows one writer.\n"));

  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("reference/slack.md:1: looks like a Slack token"));
  check_in_no_commit(sandbox, store, "xoxb-1234567890-abcdefghijKLMNOP");
  CHECK(read_file(store / "reference" / "slack.md") == text);
  // Out of the index as well, so a plain `git commit` of the user's would not take it either.
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}) == "?? reference/slack.md\n");
  CHECK(git_out(sandbox, store, {"show", "--format=", "--name-only", "HEAD~1"}) ==
        "semantic/new-fact.md\n");
}

TEST_CASE("adopting a folder holds back the files that look like they hold a credential") {
  const Sandbox sandbox;
  const fs::path folder = sandbox.work("notes");
  write_file(folder / "semantic" / "good.md", k_good_semantic);
  const std::string creds = "# Servers\n\nroot password: Xk7pQ2mZ9vR4tL8wN3sB\n";
  write_file(folder / "semantic" / "servers.md", creds);
  write_file(folder / "keys" / "id_ed25519", k_private_key_line + "\nAAAAC3NzaC1lZDI1NTE5\n");

  const auto result = sandbox.engram({"init", folder.string()});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err,
             Catch::Contains("semantic/servers.md:3: looks like a high-entropy value") &&
                 Catch::Contains("keys/id_ed25519:1: looks like a private key") &&
                 !Catch::Contains("Xk7pQ2mZ9vR4tL8wN3sB") && !Catch::Contains("could not stage"));
  const auto stat = git_out(sandbox, folder, {"log", "--stat", "--format=%s"});
  CHECK_THAT(stat, Catch::Contains("snapshot: 1 file found when engram adopted the folder") &&
                       Catch::Contains("semantic/good.md") && Catch::Contains("init:"));
  check_in_no_commit(sandbox, folder, "Xk7pQ2mZ9vR4tL8wN3sB");
  check_in_no_commit(sandbox, folder, "AAAAC3NzaC1lZDI1NTE5");
  check_in_no_object(sandbox, folder, "Xk7pQ2mZ9vR4tL8wN3sB");
  CHECK(read_file(folder / "semantic" / "servers.md") == creds);
  CHECK(git_out(sandbox, folder, {"status", "--porcelain"}) ==
        "?? keys/\n?? semantic/servers.md\n");
}

TEST_CASE("a held-back memory file is reported once a run, in its diagnostics") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  write_file(store / "semantic" / "deploy.md",
             semantic_memory({"aws", "deploy"}, "2026-11-21",
                             "- Deploys go through the staging account.\n"
                             "- aws_access_key_id = " +
                                 k_aws_key + "\n"));
  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const std::string shown = (store / "semantic" / "deploy.md").string();
  std::size_t reports = 0;
  for (auto at = result.err.find(shown); at != std::string::npos;
       at = result.err.find(shown, at + 1)) {
    ++reports;
  }
  CHECK(reports == 1);
  CHECK_THAT(result.err,
             Catch::Contains(shown + ":14: looks like an AWS access key id; held back"));

  // In JSON, the diagnostic says it was held back; nothing else names the file.
  const auto json =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now, "--json"});
  INFO(json.out << json.err);
  REQUIRE(json.exit_code == 0);
  const auto record = nlohmann::json::parse(json.out);
  CHECK_THAT(record["diagnostics"].dump(),
             Catch::Contains("deploy.md:14: looks like an AWS access key id; held back"));
  CHECK_THAT(json.err, !Catch::Contains(shown));
  check_in_no_commit(sandbox, store, k_aws_key);
}

TEST_CASE("a changed file over scan.max_file_bytes is held back unread, reported once, and never "
          "committed") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  const fs::path config = sandbox.work("config.toml");
  write_file(config, "[scan]\nmax_file_bytes = 4096\n");
  // Short lines, no credential: only the size keeps them out. One memory
  // file (the scan reads it too) and one other file.
  std::string body;
  for (int n = 0; body.size() < 6000; ++n) {
    body += "- Line " + std::to_string(n) + " of a long note.\n";
  }
  const std::string big_memory = semantic_memory({"big", "notes"}, "2026-11-21", body);
  const std::string big_other = "Exported log.\n" + body;
  write_file(store / "semantic" / "big.md", big_memory);
  write_file(store / "export.log", big_other);
  write_file(store / "semantic" / "small.md",
             semantic_memory({"small", "notes"}, "2026-11-21", "- A small note.\n"));
  const std::string before = head_of(sandbox, store);

  const auto result = sandbox.engram({"--config", config.string(), "consolidate", "--store",
                                      store.string(), "--now", k_history_now});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  for (const auto& [name, size] : {std::pair{std::string("semantic/big.md"), big_memory.size()},
                                   std::pair{std::string("export.log"), big_other.size()}}) {
    const std::string shown = (store / name).string();
    CHECK_THAT(result.err, Catch::Contains(shown + ":1: file is " + std::to_string(size) +
                                           " bytes, over the limit of 4096 (scan.max_file_bytes); "
                                           "held back unread"));
    std::size_t reports = 0;
    for (auto at = result.err.find(shown); at != std::string::npos;
         at = result.err.find(shown, at + 1)) {
      ++reports;
    }
    CHECK(reports == 1);
  }
  // The small file is committed; the large ones are on disk as they were, in no commit.
  CHECK(git_out(sandbox, store, {"show", "--format=", "--name-status", before + "..HEAD"})
            .find("semantic/small.md") != std::string::npos);
  CHECK(read_file(store / "semantic" / "big.md") == big_memory);
  CHECK(read_file(store / "export.log") == big_other);
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}) ==
        "?? export.log\n?? semantic/big.md\n");
  check_in_no_commit(sandbox, store, "Line 150 of a long note.");
  check_in_no_object(sandbox, store, "Line 150 of a long note.");

  // Cut under the limit, it is committed by the next run.
  write_file(store / "export.log", "Exported log.\n- Short now.\n");
  const auto later = sandbox.engram({"--config", config.string(), "consolidate", "--store",
                                     store.string(), "--now", k_history_now});
  REQUIRE(later.exit_code == 0);
  CHECK(git_out(sandbox, store, {"ls-files", "export.log"}) == "export.log\n");
}

TEST_CASE("an expired episode holding a Stripe key is held back, not absorbed, and no record, "
          "message or file name quotes the key") {
  const Sandbox sandbox;
  const fs::path store = committed_store(sandbox);
  const std::string stripe = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
  const std::string jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
                          "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
  write_file(store / "episodic" / "2026-05-01-billing.md",
             episodic_memory({"billing", "stripe"}, "2026-05-01", "2026-06-01",
                             "- Billing charges through " + stripe + " in production.\n"
                             "- The billing job runs at 03:00.\n"));
  write_file(store / "semantic" / (stripe + ".md"),
             semantic_memory({"billing"}, "2026-05-01", "- A note filed under a key's name.\n"));
  write_file(store / "reference" / "api.md",
             "---\ntype: reference\ntags: [api]\n---\n- Call with Bearer " + jwt + "\n");
  const auto run =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now, "--json"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  // The record quotes no claim of either file; the diagnostics name the
  // files (one by its name) for the user to clean, on this machine only.
  CHECK_THAT(run.out, !Catch::Contains("charges through") && !Catch::Contains(jwt));
  CHECK_THAT(run.out, Catch::Contains("2026-05-01-billing.md:") &&
                          Catch::Contains("looks like a Stripe secret key"));
  check_in_no_commit(sandbox, store, stripe);
  check_in_no_commit(sandbox, store, jwt);
  check_in_no_object(sandbox, store, stripe);
  // Left where the agent wrote it, whole, for the agent to clean.
  CHECK_THAT(read_file(store / "episodic" / "2026-05-01-billing.md"), Catch::Contains(stripe));
  CHECK_THAT(read_file(store / "MEMORY.md"), !Catch::Contains(stripe));
  CHECK_THAT(knowledge_text(store), !Catch::Contains("The billing job runs at 03:00."));
}
