// Loose objects (git/loose_object.cpp): an object engram writes itself has
// the id git gives it, reads back through git and libgit2 as written, passes
// `git fsck --strict`, and is not written again when the object database has it.
#include "git/libgit2.hpp"
#include "git/loose_object.hpp"
#include "lib/shell.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>

namespace fs = std::filesystem;
using engram::git::detail::Owned;
using engram::git::detail::to_hex;
using engram::git::detail::write_loose;
using engram::test::shell;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

using Repo = Owned<git_repository, git_repository_free>;

} // namespace

TEST_CASE("a loose object engram writes is the one git would write, and is written once") {
  TempDir dir;
  Repo repo;
  engram::git::detail::ensure_library();
  REQUIRE(git_repository_init(&repo.pointer, dir.path().c_str(), 0) == 0);
  const std::string text = "a note\nwith two lines\n";
  write_file(dir.path() / "note.md", text);
  const auto hashed = shell(fmt::format("git -C '{}' hash-object note.md", dir.path().string()));
  REQUIRE(hashed.ok);

  git_oid blob;
  REQUIRE(write_loose(repo.pointer, GIT_OBJECT_BLOB, text, blob) == 0);
  CHECK(to_hex(blob) + "\n" == hashed.out);
  const auto shown =
      shell(fmt::format("git -C '{}' cat-file -p {}", dir.path().string(), to_hex(blob)));
  REQUIRE(shown.ok);
  CHECK(shown.out == text);

  // A tree naming it, read back by libgit2.
  std::string tree_bytes = "100644 note.md";
  tree_bytes += '\0';
  tree_bytes.append(reinterpret_cast<const char*>(blob.id), GIT_OID_RAWSZ);
  git_oid tree_id;
  REQUIRE(write_loose(repo.pointer, GIT_OBJECT_TREE, tree_bytes, tree_id) == 0);
  Owned<git_tree, git_tree_free> tree;
  REQUIRE(git_tree_lookup(&tree.pointer, repo.pointer, &tree_id) == 0);
  REQUIRE(git_tree_entrycount(tree.pointer) == 1);
  CHECK(git_oid_equal(git_tree_entry_id(git_tree_entry_byindex(tree.pointer, 0)), &blob) != 0);

  // Objects are read-only, and one the database has is left as it is.
  const std::string hex = to_hex(blob);
  const fs::path file = dir.path() / ".git/objects" / hex.substr(0, 2) / hex.substr(2);
  struct stat before {};
  REQUIRE(::stat(file.c_str(), &before) == 0);
  CHECK((before.st_mode & 0777) == 0444);
  git_oid again;
  REQUIRE(write_loose(repo.pointer, GIT_OBJECT_BLOB, text, again) == 0);
  CHECK(git_oid_equal(&again, &blob) != 0);
  struct stat after {};
  REQUIRE(::stat(file.c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
  // No temporary left behind.
  for (const auto& entry : fs::recursive_directory_iterator(dir.path() / ".git/objects")) {
    CHECK(entry.path().filename().string().find("tmp_") == std::string::npos);
  }
  const auto fsck =
      shell(fmt::format("git -C '{}' fsck --strict --no-dangling", dir.path().string()));
  CHECK(fsck.ok);
}
