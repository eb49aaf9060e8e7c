// Folders (git/folders.cpp): trees kept parsed by id, and written with a
// commit's changes applied. Every tree it writes must be the one libgit2's
// own tree update makes from the same changes, byte for byte (the same id).
#include "git/folders.hpp"
#include "git/libgit2.hpp"
#include "git/repository.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using engram::git::Repository;
using engram::git::detail::Folders;
using engram::git::detail::TreeChange;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

// A blob of `text` in the repository's object database.
git_oid blob(git_repository* repository, const std::string& text) {
  git_oid id;
  REQUIRE(git_blob_create_from_buffer(&id, repository, text.data(), text.size()) == 0);
  return id;
}

// libgit2's own tree update of `root` with `changes`: the oracle.
git_oid libgit2_update(git_repository* repository, const git_oid& root,
                       const std::vector<TreeChange>& changes) {
  engram::git::detail::Owned<git_tree, git_tree_free> base;
  REQUIRE(git_tree_lookup(&base.pointer, repository, &root) == 0);
  std::vector<git_tree_update> updates;
  for (const auto& change : changes) {
    engram::git::detail::TreeEntry there;
    if (!change.to &&
        git_tree_entry_bypath(&there.pointer, base.pointer, change.path.c_str()) != 0) {
      continue; // libgit2 refuses to remove what is not there; Folders lets it be
    }
    git_tree_update update{};
    update.path = change.path.c_str();
    update.action = change.to ? GIT_TREE_UPDATE_UPSERT : GIT_TREE_UPDATE_REMOVE;
    if (change.to) {
      update.id = change.to->first;
      update.filemode = static_cast<git_filemode_t>(change.to->second);
    }
    updates.push_back(update);
  }
  git_oid out;
  REQUIRE(git_tree_create_updated(&out, repository, base.pointer, updates.size(), updates.data()) ==
          0);
  return out;
}

std::string hex(const git_oid& id) {
  char text[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(text, sizeof text, &id);
  return text;
}

// Commits everything in the working tree; the tree of that commit.
git_oid first_commit_tree(Repository& repository) {
  REQUIRE(repository.commit_all("test: first", {"Test", "test@example.com"}).has_value());
  engram::git::detail::Object head;
  REQUIRE(git_revparse_single(&head.pointer, repository.handle(), "HEAD^{tree}") == 0);
  return *git_object_id(head.pointer);
}

// A seeded pseudo-random draw below `n`.
class Draw {
public:
  explicit Draw(unsigned seed) : m_seed(seed) {}
  unsigned operator()(unsigned n) {
    return m_seed = m_seed * 1103515245 + 12345, (m_seed >> 16) % n;
  }

private:
  unsigned m_seed;
};

// `count` changes to distinct paths drawn from `paths`, as one commit names
// them: one in `removal_odds` a removal, the others a new blob, executable
// one time in `executable_odds` (0: never).
std::vector<TreeChange> random_changes(git_repository* git, const std::vector<std::string>& paths,
                                       unsigned count, Draw& next, unsigned removal_odds,
                                       unsigned executable_odds, int round) {
  std::vector<TreeChange> changes;
  std::set<std::string> taken;
  while (changes.size() < count) {
    TreeChange change{paths[next(static_cast<unsigned>(paths.size()))], std::nullopt};
    if (!taken.insert(change.path).second) {
      continue;
    }
    if (next(removal_odds) != 0) {
      const bool executable = executable_odds != 0 && next(executable_odds) == 0;
      change.to.emplace(blob(git, fmt::format("round {} {}", round, changes.size())),
                        executable ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB);
    }
    changes.push_back(std::move(change));
  }
  return changes;
}

// The tree Folders writes for `changes` on `root`, required to be libgit2's.
git_oid update_as_libgit2(Folders& folders, git_repository* git, const git_oid& root,
                          const std::vector<TreeChange>& changes) {
  const git_oid expected = libgit2_update(git, root, changes);
  git_oid written;
  REQUIRE(folders.update(git, &root, changes, written));
  REQUIRE(hex(written) == hex(expected));
  return written;
}

} // namespace

TEST_CASE("folders write the trees libgit2's tree update writes, change after change") {
  const TempDir dir;
  auto repository = Repository::init(dir.path());
  REQUIRE(repository.has_value());
  // Names chosen to test git's order: a folder sorts as if it ended in '/'
  // ("a.md" < "a/" < "a0"), and a prefix before what extends it.
  for (const auto* path : {"semantic/a.md", "semantic/a/x.md", "semantic/a0.md", "semantic/ab.md",
                           "episodic/2026-11-01-x.md", "WORKING.md", "semantic/deep/er/y.md"}) {
    write_file(dir / path, std::string("- ") + path + "\n");
  }
  git_oid root = first_commit_tree(*repository);
  git_repository* git = repository->handle();

  Folders folders;
  CHECK(folders.file_at(git, root, "semantic/a/x.md").has_value());
  CHECK(folders.file_at(git, root, "semantic/deep/er/y.md")->second == GIT_FILEMODE_BLOB);
  CHECK_FALSE(folders.file_at(git, root, "semantic/a").has_value()); // a folder
  CHECK_FALSE(folders.file_at(git, root, "semantic/none.md").has_value());
  CHECK_FALSE(folders.file_at(git, root, "semantic/a.md/x").has_value());

  const std::vector<std::string> paths = {"semantic/a.md",
                                          "semantic/a/x.md",
                                          "semantic/a0.md",
                                          "semantic/ab.md",
                                          "semantic/a/b/c.md",
                                          "semantic/deep/er/y.md",
                                          "WORKING.md",
                                          "new/folder/z.md",
                                          "episodic/2026-11-01-x.md",
                                          "episodic/2026-11-02-y.md",
                                          "semantic/a-b.md",
                                          "CORE.md"};
  Draw next(11);
  for (int round = 0; round < 60; ++round) {
    const auto changes = random_changes(git, paths, 1 + next(4), next, 3, 5, round);
    INFO("round " << round);
    const git_oid written = update_as_libgit2(folders, git, root, changes);
    for (const auto& change : changes) {
      const auto found = folders.file_at(git, written, change.path);
      engram::git::detail::Owned<git_tree, git_tree_free> tree;
      REQUIRE(git_tree_lookup(&tree.pointer, git, &written) == 0);
      engram::git::detail::TreeEntry entry;
      const bool there =
          git_tree_entry_bypath(&entry.pointer, tree.pointer, change.path.c_str()) == 0 &&
          git_tree_entry_type(entry.pointer) == GIT_OBJECT_BLOB;
      REQUIRE(found.has_value() == there);
      if (there) {
        CHECK(hex(found->first) == hex(*git_tree_entry_id(entry.pointer)));
      }
    }
    root = written;
  }
  // Only the trees of the last commits stay kept.
  CHECK(folders.size() < 40);
}

TEST_CASE("folders apply many changes to one folder in one pass, as libgit2 would") {
  // Past a few changes in one folder the names are removed and added in one
  // pass (a consolidation removes thousands of files from episodic/).
  const TempDir dir;
  auto repository = Repository::init(dir.path());
  REQUIRE(repository.has_value());
  std::vector<std::string> paths;
  for (int i = 0; i < 120; ++i) {
    paths.push_back(fmt::format("episodic/f{:03}.md", i));
  }
  for (const auto* extra :
       {"episodic/a.md", "episodic/a/x.md", "episodic/a0.md", "episodic/a-b.md"}) {
    paths.emplace_back(extra);
  }
  for (std::size_t i = 0; i < paths.size(); i += 2) { // every other file exists at first
    write_file(dir / paths[i], "- " + paths[i] + "\n");
  }
  write_file(dir / "episodic/a/x.md", "- inside\n");
  git_oid root = first_commit_tree(*repository);
  git_repository* git = repository->handle();

  Folders folders;
  Draw next(7);
  for (int round = 0; round < 25; ++round) {
    const auto changes = random_changes(git, paths, 17 + next(60), next, 2, 0, round);
    INFO("round " << round);
    root = update_as_libgit2(folders, git, root, changes);
  }
}

TEST_CASE("folders make an empty folder go from its parent, and keep an empty root") {
  const TempDir dir;
  auto repository = Repository::init(dir.path());
  REQUIRE(repository.has_value());
  write_file(dir / "semantic/only.md", "- The only one.\n");
  REQUIRE(repository->commit_all("test: first", {"Test", "test@example.com"}).has_value());
  git_repository* git = repository->handle();
  engram::git::detail::Object head;
  REQUIRE(git_revparse_single(&head.pointer, git, "HEAD^{tree}") == 0);

  Folders folders;
  git_oid written;
  REQUIRE(folders.update(git, git_object_id(head.pointer),
                         {TreeChange{"semantic/only.md", std::nullopt}}, written));
  CHECK(hex(written) == "4b825dc642cb6eb9a060e54bf8d69288fbee4904"); // git's empty tree
  // From nothing, a tree of one file.
  git_oid made;
  REQUIRE(
      folders.update(git, nullptr,
                     {TreeChange{"semantic/new.md", std::pair{blob(git, "- New.\n"),
                                                              std::uint32_t{GIT_FILEMODE_BLOB}}}},
                     made));
  CHECK(folders.file_at(git, made, "semantic/new.md").has_value());
}

TEST_CASE("folders patch a large folder's tree in place and write libgit2's trees, read back") {
  // 3,000 files in one folder: a tree of about 130 KB, kept as bytes (see
  // TreeBytes) and patched while commits only edit files in it.
  const TempDir dir;
  auto repository = Repository::init(dir.path());
  REQUIRE(repository.has_value());
  git_repository* git = repository->handle();
  std::vector<std::string> paths;
  engram::git::detail::Owned<git_treebuilder, git_treebuilder_free> folder;
  REQUIRE(git_treebuilder_new(&folder.pointer, git, nullptr) == 0);
  for (int i = 0; i < 3000; ++i) {
    const std::string name = fmt::format("note-{:04}.md", i);
    const git_oid id = blob(git, "- " + name + "\n");
    REQUIRE(git_treebuilder_insert(nullptr, folder.pointer, name.c_str(), &id, GIT_FILEMODE_BLOB) ==
            0);
    paths.push_back("semantic/" + name);
  }
  git_oid semantic;
  REQUIRE(git_treebuilder_write(&semantic, folder.pointer) == 0);
  engram::git::detail::Owned<git_treebuilder, git_treebuilder_free> top;
  REQUIRE(git_treebuilder_new(&top.pointer, git, nullptr) == 0);
  REQUIRE(git_treebuilder_insert(nullptr, top.pointer, "semantic", &semantic, GIT_FILEMODE_TREE) ==
          0);
  git_oid root;
  REQUIRE(git_treebuilder_write(&root, top.pointer) == 0);
  paths.emplace_back("semantic/new-one.md"); // an addition now and then: the bytes made anew
  paths.emplace_back("WORKING.md");

  std::vector<git_oid> written;
  {
    Folders folders;
    Draw next(3);
    for (int round = 0; round < 40; ++round) {
      // Mostly edits: one in twenty a removal, one in fifteen made executable.
      const auto changes = random_changes(git, paths, 1 + next(3), next, 20, 15, round);
      INFO("round " << round);
      git_oid ours;
      REQUIRE(folders.update(git, &root, changes, ours)); // written first: read back below
      CHECK(hex(ours) == hex(libgit2_update(git, root, changes)));
      written.push_back(ours);
      root = ours;
      // Every other commit has its large trees deflated while the next is
      // made: the bytes the helper reads must not be the ones patched.
      if (round % 2 == 0) {
        folders.deflate_later();
      }
    }
  } // the helper is done
  // Every tree written reads back through libgit2, which checks each id.
  REQUIRE(git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 1) == 0);
  engram::git::detail::Owned<git_odb, git_odb_free> odb;
  REQUIRE(git_repository_odb(&odb.pointer, git) == 0);
  for (const auto& id : written) {
    engram::git::detail::Owned<git_odb_object, git_odb_object_free> object;
    INFO(hex(id));
    REQUIRE(git_odb_read(&object.pointer, odb.pointer, &id) == 0);
    git_oid again;
    REQUIRE(git_odb_hash(&again, git_odb_object_data(object.pointer),
                         git_odb_object_size(object.pointer), GIT_OBJECT_TREE) == 0);
    CHECK(hex(again) == hex(id));
  }
}
