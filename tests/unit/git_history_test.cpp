// git::log, resolve, show, revert_onto_head, files_at and blob_in_head over
// real repositories made with git::Repository.
#include "git/history.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using engram::git::ChangeKind;
using engram::git::Repository;
using engram::git::Signature;
using engram::test::TempDir;
using engram::test::write_file;
namespace git = engram::git;

namespace {

// A fixed signature for tests.
const Signature k_signature{"Test", "test@example.com"};

// A new repository in `dir`, which must succeed.
Repository make_repository(const TempDir& dir) {
  auto repository = Repository::init(dir.path());
  REQUIRE(repository.has_value());
  return std::move(repository).value();
}

// Commits everything, which must make a commit, and returns its id.
std::string commit(Repository& repository, const std::string& message) {
  auto id = repository.commit_all(message, k_signature);
  INFO((id ? std::string() : id.error().message));
  REQUIRE(id.has_value());
  REQUIRE(id->has_value());
  return **id;
}

} // namespace

TEST_CASE("log lists commits newest first with their run trailer and counts") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  CHECK(git::log(repository, 0).empty());
  write_file(dir / "a.md", "one\ntwo\n");
  const auto first = commit(repository, "init: start\n\nEngram-Run: init\n");
  write_file(dir / "a.md", "one\nthree\n");
  write_file(dir / "b.md", "new\n");
  const auto second =
      commit(repository, "consolidate(full): 1 merged\n\n- x\n\nEngram-Run: full\n");
  write_file(dir / "c.md", "by hand\n");
  const auto third = commit(repository, "a commit someone made");

  const auto log = git::log(repository, 0);
  REQUIRE(log.size() == 3);
  CHECK(log[0].id == third);
  CHECK(log[0].run.empty());
  CHECK(log[1].id == second);
  CHECK(log[1].summary == "consolidate(full): 1 merged");
  CHECK(log[1].run == "full");
  CHECK(log[1].files_changed == 2);
  CHECK(log[1].insertions == 2);
  CHECK(log[1].deletions == 1);
  CHECK(log[2].id == first);
  CHECK(log[2].files_changed == 1);
  CHECK(log[2].author.name == "Test");
  CHECK(git::log(repository, 2).size() == 2);
}

TEST_CASE("resolve takes ids, prefixes and HEAD~N, and says why for a name that is no commit") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "a.md", "A\n");
  const auto first = commit(repository, "first");
  write_file(dir / "a.md", "B\n");
  const auto second = commit(repository, "second");
  CHECK(git::resolve(repository, "HEAD").value() == second);
  CHECK(git::resolve(repository, "HEAD~1").value() == first);
  CHECK(git::resolve(repository, first.substr(0, 8)).value() == first);
  const auto missing = git::resolve(repository, "nowhere");
  REQUIRE_FALSE(missing.has_value());
  CHECK_THAT(missing.error(), Catch::Contains("nowhere names no commit"));
}

TEST_CASE("show gives the message, trailers, parents and files of a commit") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "keep.md", "K\n");
  write_file(dir / "gone.md", "G\n");
  const auto first = commit(repository, "first");
  write_file(dir / "keep.md", "K2\n");
  write_file(dir / "new.md", "N\n");
  fs::remove(dir / "gone.md");
  const auto second =
      commit(repository, "rollback: x\n\nReverts 0123 (x):\n- removed a\n\nEngram-Run: rollback\n"
                         "Reverts: 0123456789\n");
  const auto detail = git::show(repository, second);
  CHECK(detail.entry.summary == "rollback: x");
  CHECK(detail.parents == std::vector<std::string>{first});
  REQUIRE(detail.trailers.size() == 2);
  CHECK(detail.trailers[0] == std::pair<std::string, std::string>{"Engram-Run", "rollback"});
  CHECK(detail.trailers[1] == std::pair<std::string, std::string>{"Reverts", "0123456789"});
  REQUIRE(detail.files.size() == 3);
  CHECK(detail.files[0].path == "gone.md");
  CHECK(detail.files[0].kind == ChangeKind::deleted);
  CHECK(detail.files[1].path == "keep.md");
  CHECK(detail.files[1].kind == ChangeKind::modified);
  CHECK(detail.files[2].path == "new.md");
  CHECK(detail.files[2].kind == ChangeKind::added);
}

TEST_CASE("revert_onto_head computes the undo of a commit without touching the working tree") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "semantic.md", "a\nb\nc\n");
  write_file(dir / "episodic.md", "e\n");
  commit(repository, "first");
  write_file(dir / "semantic.md", "a\nb\nc\nabsorbed\n");
  fs::remove(dir / "episodic.md");
  const auto consolidation = commit(repository, "consolidate");
  write_file(dir / "other.md", "later\n");
  commit(repository, "later, elsewhere");

  const auto revert = git::revert_onto_head(repository, consolidation);
  REQUIRE(revert.has_value());
  CHECK(revert->conflicts.empty());
  REQUIRE(revert->changes.size() == 2);
  CHECK(revert->changes[0].path == "episodic.md");
  CHECK_FALSE(revert->changes[0].before.has_value());
  CHECK(repository.read_blob(*revert->changes[0].after) == "e\n");
  CHECK(revert->changes[1].path == "semantic.md");
  CHECK(repository.read_blob(*revert->changes[1].after) == "a\nb\nc\n");
  CHECK(engram::test::read_file(dir / "semantic.md") == "a\nb\nc\nabsorbed\n");
  CHECK(repository.is_clean());
}

TEST_CASE("revert_onto_head names the files a later change touched on the same lines") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "semantic.md", "a\nb\n");
  const auto first = commit(repository, "first");
  write_file(dir / "semantic.md", "a\nb\nabsorbed\n");
  const auto consolidation = commit(repository, "consolidate");
  write_file(dir / "semantic.md", "a\nb\nabsorbed, corrected\n");
  commit(repository, "edit");

  const auto revert = git::revert_onto_head(repository, consolidation);
  REQUIRE(revert.has_value());
  CHECK(revert->conflicts == std::vector<std::string>{"semantic.md"});
  CHECK(revert->changes.empty());

  const auto root = git::revert_onto_head(repository, first);
  REQUIRE_FALSE(root.has_value());
  CHECK_THAT(root.error(), Catch::Contains("first commit"));
}

TEST_CASE("files_at gives a file, a folder's files or the whole tree, and blob_in_head one file") {
  const TempDir dir;
  Repository repository = make_repository(dir);
  write_file(dir / "MEMORY.md", "M\n");
  write_file(dir / "episodic" / "a.md", "A\n");
  write_file(dir / "episodic" / "deep" / "b.md", "B\n");
  const auto id = commit(repository, "first");

  const auto one = git::files_at(repository, id, "episodic/a.md");
  REQUIRE(one.size() == 1);
  CHECK(repository.read_blob(one[0].second) == "A\n");
  const auto folder = git::files_at(repository, id, "episodic");
  REQUIRE(folder.size() == 2);
  CHECK(folder[0].first == "episodic/a.md");
  CHECK(folder[1].first == "episodic/deep/b.md");
  CHECK(git::files_at(repository, id, ".").size() == 3);
  CHECK(git::files_at(repository, id, "missing.md").empty());
  const auto memory = git::files_at(repository, id, "MEMORY.md");
  REQUIRE(memory.size() == 1);
  CHECK(git::blob_in_head(repository, "MEMORY.md") == memory[0].second);
  CHECK_FALSE(git::blob_in_head(repository, "episodic").has_value());
}
