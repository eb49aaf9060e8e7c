// Unfiltered staging (git/unfiltered.cpp): a commit of many files stages
// them as their own bytes when no filter can apply, and through git's
// filters when one can; either way the commit and the index are what git's
// own `git add` would make. A status refreshes stale stat data the same way.
#include "git/libgit2.hpp"
#include "git/repository.hpp"
#include "git/unfiltered.hpp"
#include "lib/temp_dir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace fs = std::filesystem;
using engram::git::Repository;
using engram::git::Signature;
using engram::git::detail::Index;
using engram::test::read_file;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

const Signature k_signature{"Test", "test@example.com"};

// Stands in for the sandbox of the integration tests: the store's folder.
struct Sandbox {
  TempDir dir;
  fs::path work(const fs::path& relative) const { return dir.path() / relative; }
};

// A new repository in the sandbox's work folder with one commit.
Repository make_repository(const Sandbox& sandbox) {
  auto repository = Repository::init(sandbox.work("store"));
  REQUIRE(repository.has_value());
  write_file(sandbox.work("store/README.md"), "a store\n");
  REQUIRE(repository->commit_all("test: first", k_signature).has_value());
  return std::move(repository).value();
}

// The blob id HEAD holds at `path`, as hex; empty when it holds none.
std::string head_blob(const Repository& repository, const std::string& path) {
  engram::git::detail::Object tree;
  engram::git::detail::TreeEntry entry;
  if (git_revparse_single(&tree.pointer, repository.handle(), "HEAD^{tree}") != 0 ||
      git_tree_entry_bypath(&entry.pointer, reinterpret_cast<git_tree*>(tree.pointer),
                            path.c_str()) != 0) {
    return {};
  }
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(hex, sizeof hex, git_tree_entry_id(entry.pointer));
  return hex;
}

// The file mode HEAD holds at `path`; 0 when it holds none.
unsigned head_mode(const Repository& repository, const std::string& path) {
  engram::git::detail::Object tree;
  engram::git::detail::TreeEntry entry;
  if (git_revparse_single(&tree.pointer, repository.handle(), "HEAD^{tree}") != 0 ||
      git_tree_entry_bypath(&entry.pointer, reinterpret_cast<git_tree*>(tree.pointer),
                            path.c_str()) != 0) {
    return 0;
  }
  return static_cast<unsigned>(git_tree_entry_filemode(entry.pointer));
}

// The repository's index, read again from disk.
void read_index(const Repository& repository, Index& index) {
  REQUIRE(git_repository_index(&index.pointer, repository.handle()) == 0);
  REQUIRE(git_index_read(index.pointer, 1) == 0);
}

// Writes `count` memory files (more than a commit stages through libgit2
// path by path) with `ending` at the end of each line; returns their paths.
std::vector<std::string> write_files(const Sandbox& sandbox, int count, const std::string& ending) {
  std::vector<std::string> paths;
  for (int i = 0; i < count; ++i) {
    const std::string path = "semantic/fact-" + std::to_string(i) + ".md";
    write_file(sandbox.work("store") / path, "---\ntype: semantic" + ending + "---" + ending +
                                                 "- fact " + std::to_string(i) + ending);
    paths.push_back(path);
  }
  return paths;
}

} // namespace

TEST_CASE("a commit of many files holds each file's own bytes and leaves git status clean") {
  const Sandbox sandbox;
  Repository repository = make_repository(sandbox);
  const auto paths = write_files(sandbox, 40, "\n");
  REQUIRE(repository.commit_paths(paths, "test: many", k_signature).has_value());

  CHECK(repository.is_clean());
  CHECK(repository.changes().empty());
  // The blob is the one `git hash-object` makes of the file.
  const auto bytes = read_file(sandbox.work("store") / paths[7]);
  git_oid id;
  REQUIRE(git_odb_hash(&id, bytes.data(), bytes.size(), GIT_OBJECT_BLOB) == 0);
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(hex, sizeof hex, &id);
  CHECK(head_blob(repository, paths[7]) == hex);
  // The index holds the file's stat data, so a status need not read it again.
  Index index;
  read_index(repository, index);
  const git_index_entry* entry = git_index_get_bypath(index.pointer, paths[7].c_str(), 0);
  REQUIRE(entry != nullptr);
  struct stat info {};
  REQUIRE(::stat((sandbox.work("store") / paths[7]).c_str(), &info) == 0);
  CHECK(entry->file_size == static_cast<std::uint32_t>(info.st_size));
  CHECK(entry->mtime.seconds == static_cast<std::int32_t>(info.st_mtim.tv_sec));
  CHECK(entry->mtime.nanoseconds == static_cast<std::uint32_t>(info.st_mtim.tv_nsec));
  CHECK(entry->ino == static_cast<std::uint32_t>(info.st_ino));
  CHECK(entry->mode == GIT_FILEMODE_BLOB);
}

TEST_CASE("a commit of many files with an attributes file goes through git's filters") {
  const Sandbox sandbox;
  Repository repository = make_repository(sandbox);
  write_file(sandbox.work("store/.gitattributes"), "*.md text eol=lf\n");
  REQUIRE(repository.commit_paths({".gitattributes"}, "test: attributes", k_signature).has_value());
  {
    Index index;
    read_index(repository, index);
    CHECK(engram::git::detail::may_filter(repository.handle(), index.pointer));
  }
  const auto paths = write_files(sandbox, 40, "\r\n");
  REQUIRE(repository.commit_paths(paths, "test: crlf", k_signature).has_value());

  // git's text filter stored the lines with LF, as `git add` would.
  const auto stored = repository.read_blob(head_blob(repository, paths[3]));
  REQUIRE(stored.has_value());
  CHECK(*stored == "---\ntype: semantic\n---\n- fact 3\n");
}

TEST_CASE("no filter can apply to a store without attributes or autocrlf") {
  const Sandbox sandbox;
  Repository repository = make_repository(sandbox);
  Index index;
  read_index(repository, index);
  const char* home = std::getenv("HOME");
  const bool user_has_attributes =
      (home != nullptr && fs::exists(fs::path(home) / ".config/git/attributes")) ||
      fs::exists("/etc/gitattributes");
  if (!user_has_attributes) {
    CHECK_FALSE(engram::git::detail::may_filter(repository.handle(), index.pointer));
  }
  engram::git::detail::Config config;
  REQUIRE(git_repository_config(&config.pointer, repository.handle()) == 0);
  REQUIRE(git_config_set_string(config.pointer, "core.autocrlf", "input") == 0);
  CHECK(engram::git::detail::may_filter(repository.handle(), index.pointer));
}

TEST_CASE("a link among many files is staged as a link") {
  const Sandbox sandbox;
  Repository repository = make_repository(sandbox);
  auto paths = write_files(sandbox, 20, "\n");
  fs::create_symlink("fact-1.md", sandbox.work("store/semantic/link.md"));
  paths.push_back("semantic/link.md");
  REQUIRE(repository.commit_paths(paths, "test: link", k_signature).has_value());

  CHECK(head_mode(repository, "semantic/link.md") == GIT_FILEMODE_LINK);
  CHECK(repository.is_clean());
}

TEST_CASE(
    "a status of a store whose stat data went stale hashes the files and finds what changed") {
  const Sandbox sandbox;
  Repository repository = make_repository(sandbox);
  // More files than one thread refreshes alone: they are hashed on every core.
  const auto paths = write_files(sandbox, 300, "\n");
  REQUIRE(repository.commit_paths(paths, "test: many", k_signature).has_value());
  const fs::path store = sandbox.work("store");
  // Every file replaced by a copy of itself (a new inode, new times), as a
  // copied or restored store has them; one changed at the same size, one
  // made executable.
  for (const auto& path : paths) {
    auto bytes = read_file(store / path);
    if (path == paths[7]) {
      bytes.replace(bytes.find("fact 7"), 6, "fakt 7");
    }
    write_file(store / (path + ".copy"), bytes);
    fs::rename(store / (path + ".copy"), store / path);
  }
  fs::permissions(store / paths[9], fs::perms::owner_exec, fs::perm_options::add);

  const auto changes = repository.changes();
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].path == paths[7]); // "semantic/fact-7.md" sorts before "semantic/fact-9.md"
  CHECK(changes[1].path == paths[9]);
  CHECK(changes[0].kind == engram::git::ChangeKind::modified);
  CHECK(changes[1].kind == engram::git::ChangeKind::modified);

  // The unchanged files' entries took their new stat data; the changed ones kept the old.
  Index index;
  REQUIRE(git_repository_index(&index.pointer, repository.handle()) == 0);
  const auto inode = [&](const std::string& path) {
    struct stat info {};
    REQUIRE(::stat((store / path).c_str(), &info) == 0);
    return static_cast<std::uint32_t>(info.st_ino);
  };
  const auto staged_inode = [&](const std::string& path) {
    const git_index_entry* entry = git_index_get_bypath(index.pointer, path.c_str(), 0);
    REQUIRE(entry != nullptr);
    return entry->ino;
  };
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (i != 7 && i != 9) {
      REQUIRE(staged_inode(paths[i]) == inode(paths[i]));
    }
  }
  CHECK(staged_inode(paths[7]) != inode(paths[7]));
  CHECK(staged_inode(paths[9]) != inode(paths[9]));

  // A status writes nothing; the next commit writes the refreshed entries
  // with its own, as git does.
  Index untouched;
  read_index(repository, untouched);
  const auto written_inode = [&](const Index& kept, const std::string& path) {
    const git_index_entry* entry = git_index_get_bypath(kept.pointer, path.c_str(), 0);
    REQUIRE(entry != nullptr);
    return entry->ino;
  };
  CHECK(written_inode(untouched, paths[3]) != inode(paths[3]));
  REQUIRE(repository.changes().size() == 2); // refreshed again: the forced read above dropped it
  REQUIRE(repository.commit_paths({paths[7], paths[9]}, "test: two", k_signature).has_value());
  CHECK(repository.is_clean());
  Index on_disk;
  read_index(repository, on_disk);
  CHECK(written_inode(on_disk, paths[3]) == inode(paths[3]));
}

