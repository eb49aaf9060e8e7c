// `engram init`: the layout, the repository, the first commit, and the
// promise never to overwrite a file.
#include "lib/history.hpp"
#include "lib/process.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::snapshot_tree;
using engram::test::write_file;

namespace {

// The layer folders DESIGN.md names.
const std::vector<std::string> k_folders{"episodic", "semantic", "procedural", "reference",
                                         "archive"};

// The number of commits on HEAD.
int commit_count(const Sandbox& sandbox, const fs::path& store) {
  const auto result = sandbox.git(store, {"rev-list", "--count", "HEAD"});
  REQUIRE(result.exit_code == 0);
  return std::stoi(result.out);
}

// HEAD's commit id.
std::string head(const Sandbox& sandbox, const fs::path& store) {
  const auto result = sandbox.git(store, {"rev-parse", "HEAD"});
  REQUIRE(result.exit_code == 0);
  return result.out;
}

// Checks that git sees a clean, consistent repository.
void require_clean_repository(const Sandbox& sandbox, const fs::path& store) {
  const auto status = sandbox.git(store, {"status", "--porcelain"});
  REQUIRE(status.exit_code == 0);
  CHECK(status.out.empty());
  const auto fsck = sandbox.git(store, {"fsck", "--strict"});
  CHECK(fsck.exit_code == 0);
}

// The files HEAD tracks.
std::string tracked(const Sandbox& sandbox, const fs::path& store) {
  return sandbox.git(store, {"ls-files"}).out;
}

} // namespace

TEST_CASE("init creates the layout, a git repository and one commit") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("memory");
  const auto result = sandbox.engram({"init", store.string()});
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find(store.string()) != std::string::npos);

  for (const auto& folder : k_folders) {
    INFO(folder);
    CHECK(fs::is_directory(store / folder));
    CHECK(fs::exists(store / folder / ".gitkeep"));
  }
  CHECK(fs::is_directory(store / ".engram"));
  CHECK(fs::is_directory(store / ".git"));
  const std::string working = read_file(store / "WORKING.md");
  CHECK(working.starts_with("---\n"));
  CHECK(working.find("\n## ") != std::string::npos);
  CHECK(fs::is_regular_file(store / "MEMORY.md"));
  CHECK(read_file(store / ".gitignore").find(".engram/\n") != std::string::npos);

  CHECK(commit_count(sandbox, store) == 1);
  CHECK(sandbox.git(store, {"log", "--format=%s"}).out == "init: create engram store\n");
  CHECK(sandbox.git(store, {"log", "--format=%(trailers:key=Engram-Run,valueonly)"}).out ==
        "init\n\n");
  require_clean_repository(sandbox, store);
  const std::string files = tracked(sandbox, store);
  CHECK(files.find("WORKING.md") != std::string::npos);
  CHECK(files.find("MEMORY.md") != std::string::npos);
  CHECK(files.find("episodic/.gitkeep") != std::string::npos);
  CHECK(files.find(".engram") == std::string::npos);
}

TEST_CASE("init signs as engram@host unless the configuration or the repository names someone") {
  const Sandbox sandbox;
  const fs::path plain = sandbox.work("plain");
  REQUIRE(sandbox.engram({"init", plain.string()}).exit_code == 0);
  CHECK(sandbox.git(plain, {"log", "--format=%an"}).out == "engram\n");
  CHECK(sandbox.git(plain, {"log", "--format=%ae"}).out.starts_with("engram@"));

  const fs::path config = sandbox.work("engram.toml");
  write_file(config, "[git]\nauthor_name = \"Ada Lovelace\"\nauthor_email = \"ada@example.com\"\n");
  const fs::path configured = sandbox.work("configured");
  REQUIRE(sandbox.engram({"--config", config.string(), "init", configured.string()}).exit_code ==
          0);
  CHECK(sandbox.git(configured, {"log", "--format=%an <%ae>"}).out ==
        "Ada Lovelace <ada@example.com>\n");

  // The repository's own identity wins over engram's configuration.
  const fs::path own = sandbox.work("own");
  REQUIRE(sandbox.git(sandbox.work(), {"init", "-q", own.string()}).exit_code == 0);
  REQUIRE(sandbox.git(own, {"config", "user.name", "Store Owner"}).exit_code == 0);
  REQUIRE(sandbox.engram({"--config", config.string(), "init", own.string()}).exit_code == 0);
  CHECK(sandbox.git(own, {"log", "--format=%an <%ae>"}).out == "Store Owner <ada@example.com>\n");
}

TEST_CASE("init on an existing store changes nothing and says so") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("memory");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const std::string first_head = head(sandbox, store);
  const auto before = snapshot_tree(store);

  const auto again = sandbox.engram({"init", store.string()});
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("already") != std::string::npos);
  CHECK(head(sandbox, store) == first_head);
  CHECK(commit_count(sandbox, store) == 1);
  CHECK(snapshot_tree(store) == before);
}

TEST_CASE("init on a folder with files never overwrites them and adopts them in a snapshot first") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("existing");
  const std::string working = "---\ntype: working\n---\n# Mine\n\n- [ ] keep this exactly\n";
  const std::string fact =
      "---\ntype: semantic\ntags: [sqlite, pagination]\n---\nPages hold 50 rows.\n";
  write_file(store / "WORKING.md", working);
  write_file(store / "semantic" / "sqlite.md", fact);
  write_file(store / ".gitignore", "*.log");
  write_file(store / "debug.log", "noise\n");
  // An editor's swap file and backup beside a memory are never adopted.
  write_file(store / "semantic" / ".sqlite.md.swp", "swap\n");
  write_file(store / "semantic" / "sqlite.md~", fact);

  const auto result = sandbox.engram({"init", store.string()});
  REQUIRE(result.exit_code == 0);
  CHECK(read_file(store / "WORKING.md") == working);
  CHECK(read_file(store / "semantic" / "sqlite.md") == fact);
  const auto ignore = read_file(store / ".gitignore");
  CHECK(ignore.starts_with("*.log\n.engram/\n"));
  CHECK_THAT(ignore, Catch::Contains("\n*~\n") && Catch::Contains("\n*.swp\n"));
  CHECK_FALSE(fs::exists(store / "semantic" / ".gitkeep")); // a folder with files needs none
  CHECK(fs::exists(store / "MEMORY.md"));

  // What was there is adopted in a snapshot of its own; the layout follows.
  CHECK(commit_count(sandbox, store) == 2);
  CHECK(sandbox.git(store, {"log", "--format=%s"}).out ==
        "init: create engram store\nsnapshot: 3 files found when engram adopted the folder\n");
  CHECK(sandbox.git(store, {"show", "--format=", "--name-only", "HEAD~1"}).out ==
        ".gitignore\nWORKING.md\nsemantic/sqlite.md\n");
  require_clean_repository(sandbox, store);
  const std::string files = tracked(sandbox, store);
  CHECK(files.find("WORKING.md") != std::string::npos);
  CHECK(files.find("semantic/sqlite.md") != std::string::npos);
  CHECK(files.find("debug.log") == std::string::npos);
  CHECK(files.find("sqlite.md~") == std::string::npos);
  CHECK(files.find(".swp") == std::string::npos);
}

TEST_CASE("init on a repository that is not engram's keeps the store's history outside it") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("repo");
  write_file(store / "notes.md", "# notes\n");
  write_file(store / "CLAUDE.md", "# Project\n\nRun `make test` before a commit.\n");
  REQUIRE(sandbox.git(sandbox.work(), {"init", "-q", store.string()}).exit_code == 0);
  REQUIRE(sandbox.git(store, {"add", "-A"}).exit_code == 0);
  REQUIRE(sandbox.git(store, {"commit", "-q", "-m", "mine"}).exit_code == 0);
  const auto config_before = read_file(store / ".git" / "config");

  const auto result = sandbox.engram({"init", store.string()});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("which is not engram's"));
  // The project's repository is as it was: one commit, its config unchanged.
  CHECK(sandbox.git(store, {"log", "--format=%s"}).out == "mine\n");
  CHECK(read_file(store / ".git" / "config") == config_before);
  CHECK(read_file(store / "notes.md") == "# notes\n");
  CHECK(read_file(store / "CLAUDE.md") == "# Project\n\nRun `make test` before a commit.\n");
  // The store's own history, with the files it adopted.
  const auto history = engram::test::history_of_store(sandbox, store);
  const auto own =
      sandbox.git(store, engram::test::outside(history, store, {"log", "--format=%s"}));
  CHECK(own.out == "init: create engram store\n"
                   "snapshot: 2 files found when engram adopted the folder\n");
  CHECK(sandbox.git(store, engram::test::outside(history, store, {"status", "--porcelain"}))
            .out.empty());
  // Running init again finds the store.
  CHECK_THAT(sandbox.engram({"init", store.string()}).out, Catch::Contains("already"));
}

TEST_CASE("init --example copies the example store in and commits it") {
  const Sandbox sandbox;
  const fs::path example = fs::path(ENGRAM_SOURCE_DIR) / "examples" / "store";
  const fs::path store = sandbox.work("seeded");
  const auto result = sandbox.engram({"init", "--example", example.string(), store.string()});
  REQUIRE(result.exit_code == 0);

  int copied = 0;
  for (const auto& entry : fs::recursive_directory_iterator(example)) {
    if (entry.is_regular_file()) {
      const fs::path relative = fs::relative(entry.path(), example);
      INFO(relative);
      CHECK(read_file(store / relative) == read_file(entry.path()));
      ++copied;
    }
  }
  CHECK(copied >= 6);
  CHECK(commit_count(sandbox, store) == 1);
  require_clean_repository(sandbox, store);
  CHECK(sandbox.engram({"check", "--store", store.string()}).exit_code == 0);
}

TEST_CASE("init without a path creates the default store") {
  const Sandbox sandbox;
  const auto result = sandbox.engram({"init"});
  REQUIRE(result.exit_code == 0);
  CHECK(fs::is_directory(sandbox.default_store() / ".git"));
  CHECK(fs::is_regular_file(sandbox.default_store() / "WORKING.md"));
  CHECK(sandbox.engram({"status"}).exit_code == 0);
}

TEST_CASE("init refuses a path that is a file") {
  const Sandbox sandbox;
  write_file(sandbox.work("file"), "x");
  const auto result = sandbox.engram({"init", sandbox.work("file").string()});
  CHECK(result.exit_code == 1);
  CHECK(read_file(sandbox.work("file")) == "x");
}
