// Loose objects (git/loose_object.cpp): an object engram writes itself has
// the id git gives it, reads back through git and libgit2 as written, passes
// `git fsck --strict`, and is not written again when the object database has it;
// a large one is written stored and deflated in place afterwards.
#include "git/deflate.hpp"
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
#include <vector>

namespace fs = std::filesystem;
using engram::git::detail::LaterDeflate;
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

TEST_CASE("a large object is written stored, readable at once, and deflated after the commit") {
  TempDir dir;
  Repo repo;
  engram::git::detail::ensure_library();
  REQUIRE(git_repository_init(&repo.pointer, dir.path().c_str(), 0) == 0);
  // Several stored blocks' worth (65,535 bytes each), the last one partial,
  // and compressible, as a big folder's tree is.
  std::string text;
  for (int i = 0; text.size() < 3 * 65535 + 1000; ++i) {
    text += fmt::format("- fact {} about the order sync retry path.\n", i);
  }
  REQUIRE(text.size() >= LaterDeflate::k_from);
  write_file(dir.path() / "big.md", text);
  const auto hashed = shell(fmt::format("git -C '{}' hash-object big.md", dir.path().string()));
  REQUIRE(hashed.ok);

  LaterDeflate later;
  git_oid id;
  REQUIRE(write_loose(repo.pointer, GIT_OBJECT_BLOB, text, id, &later) == 0);
  CHECK(to_hex(id) + "\n" == hashed.out);
  const std::string hex = to_hex(id);
  const fs::path file = dir.path() / ".git/objects" / hex.substr(0, 2) / hex.substr(2);
  const auto stored_size = fs::file_size(file);
  CHECK(stored_size > text.size()); // its bytes as they are, in zlib's framing
  const auto cat = [&] {
    return shell(fmt::format("git -C '{}' cat-file -p {}", dir.path().string(), hex));
  };
  CHECK(cat().out == text);
  Owned<git_blob, git_blob_free> blob;
  REQUIRE(git_blob_lookup(&blob.pointer, repo.pointer, &id) == 0);
  CHECK(std::string(static_cast<const char*>(git_blob_rawcontent(blob.pointer)),
                    static_cast<std::size_t>(git_blob_rawsize(blob.pointer))) == text);

  later.start();
  later.wait();
  CHECK(fs::file_size(file) < text.size() / 4); // deflated, in place
  struct stat deflated {};
  REQUIRE(::stat(file.c_str(), &deflated) == 0);
  CHECK((deflated.st_mode & 0777) == 0444);
  CHECK(cat().out == text);
  for (const auto& entry : fs::recursive_directory_iterator(dir.path() / ".git/objects")) {
    CHECK(entry.path().filename().string().find("tmp_") == std::string::npos);
  }
  CHECK(shell(fmt::format("git -C '{}' fsck --strict --no-dangling", dir.path().string())).ok);

  // Without a LaterDeflate, or below the size, it is deflated at once.
  write_file(dir.path() / "big2.md", text + "one more\n");
  git_oid direct;
  REQUIRE(write_loose(repo.pointer, GIT_OBJECT_BLOB, text + "one more\n", direct) == 0);
  const std::string direct_hex = to_hex(direct);
  CHECK(fs::file_size(dir.path() / ".git/objects" / direct_hex.substr(0, 2) /
                      direct_hex.substr(2)) < text.size() / 4);
}

TEST_CASE("stored zlib streams of any length read back through zlib's own reader") {
  TempDir dir;
  Repo repo;
  engram::git::detail::ensure_library();
  REQUIRE(git_repository_init(&repo.pointer, dir.path().c_str(), 0) == 0);
  // Empty, one byte, a block exactly, a block and one byte, across parts.
  for (const std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{65535},
                                 std::size_t{65536}, std::size_t{200'000}}) {
    INFO(size);
    std::string bytes(size, 'x');
    for (std::size_t i = 0; i < size; ++i) {
      bytes[i] = static_cast<char>('a' + (i * 7) % 26);
    }
    std::string stream;
    engram::git::detail::put_stored(stream, {"blob " + std::to_string(size) + std::string(1, '\0'),
                                             bytes});
    // Written as the loose object it is, git reads and checks it.
    write_file(dir.path() / "f", bytes);
    const auto hashed = shell(fmt::format("git -C '{}' hash-object f", dir.path().string()));
    REQUIRE(hashed.ok);
    const std::string hex = hashed.out.substr(0, 40);
    const fs::path file = dir.path() / ".git/objects" / hex.substr(0, 2) / hex.substr(2);
    fs::create_directories(file.parent_path());
    write_file(file, stream);
    const auto shown =
        shell(fmt::format("git -C '{0}' cat-file blob {1} | cmp - '{0}/f'", dir.path().string(), hex));
    CHECK(shown.ok);
    CHECK(shell(fmt::format("git -C '{}' fsck --strict --no-dangling", dir.path().string())).ok);
    fs::remove(file);
  }
}

TEST_CASE("objects handed to the helper while it deflates others are deflated in turn, and "
          "dropped ones stay stored") {
  TempDir dir;
  Repo repo;
  engram::git::detail::ensure_library();
  REQUIRE(git_repository_init(&repo.pointer, dir.path().c_str(), 0) == 0);
  const auto object_file = [&](const git_oid& id) {
    const std::string hex = to_hex(id);
    return dir.path() / ".git/objects" / hex.substr(0, 2) / hex.substr(2);
  };
  const auto big = [](int n) {
    std::string text;
    for (int i = 0; text.size() < LaterDeflate::k_from + 5000; ++i) {
      text += fmt::format("- object {} fact {} about the retry path.\n", n, i);
    }
    return text;
  };

  std::vector<git_oid> handed;
  git_oid dropped{};
  {
    LaterDeflate later;
    CHECK_FALSE(later.busy());
    // Six commits' worth, one object each, handed over without waiting.
    for (int n = 0; n < 6; ++n) {
      git_oid id;
      REQUIRE(write_loose(repo.pointer, GIT_OBJECT_BLOB, big(n), id, &later) == 0);
      handed.push_back(id);
      later.start();
    }
    // One whose commit failed: dropped, never handed over.
    REQUIRE(write_loose(repo.pointer, GIT_OBJECT_BLOB, big(99), dropped, &later) == 0);
    later.drop();
    later.start(); // nothing to hand over
    later.wait();
    CHECK_FALSE(later.busy());
    for (const auto& id : handed) {
      CHECK(fs::file_size(object_file(id)) < LaterDeflate::k_from / 4);
    }
    // Handed over and not waited for: done before the LaterDeflate goes.
    git_oid last;
    REQUIRE(write_loose(repo.pointer, GIT_OBJECT_BLOB, big(7), last, &later) == 0);
    later.start();
    handed.push_back(last);
  }
  CHECK(fs::file_size(object_file(handed.back())) < LaterDeflate::k_from / 4);
  CHECK(fs::file_size(object_file(dropped)) > LaterDeflate::k_from); // stored, still sound
  CHECK(shell(fmt::format("git -C '{}' fsck --strict --no-dangling", dir.path().string())).ok);
}
