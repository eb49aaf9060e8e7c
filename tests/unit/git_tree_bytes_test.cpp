// TreeBytes (git/tree_bytes.cpp): a large tree's bytes patched id by id and
// hashed again from a state part way through must give the id libgit2 gives
// the whole object, wherever the changes fall (before, across and after the
// states kept every k_stride bytes).
#include "git/libgit2.hpp"
#include "git/tree_bytes.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <string>
#include <vector>

using engram::git::detail::to_hex;
using engram::git::detail::TreeBytes;

namespace {

// An id made from `n`, as a blob's would be.
git_oid id_of(unsigned n) {
  git_oid id;
  const std::string text = fmt::format("blob {}", n);
  REQUIRE(git_odb_hash(&id, text.data(), text.size(), GIT_OBJECT_BLOB) == 0);
  return id;
}

// The id libgit2 (its own SHA-1) gives a tree of `bytes`.
std::string libgit2_id(const std::string& bytes) {
  git_oid id;
  REQUIRE(git_odb_hash(&id, bytes.data(), bytes.size(), GIT_OBJECT_TREE) == 0);
  return to_hex(id);
}

std::string hashed(TreeBytes& tree) {
  git_oid id;
  REQUIRE(tree.hash(id));
  return to_hex(id);
}

// A tree of `count` files, each about 50 bytes.
TreeBytes made(unsigned count) {
  TreeBytes tree;
  for (unsigned i = 0; i < count; ++i) {
    tree.add(i % 7 == 0 ? 0100755 : 0100644, fmt::format("note-{:05}.md", i), id_of(i));
  }
  return tree;
}

} // namespace

TEST_CASE("a tree's bytes are git's tree format, and hash as libgit2 hashes them") {
  engram::git::detail::ensure_library();
  TreeBytes tree;
  tree.add(040000, "episodic", id_of(1));
  tree.add(0100644, "WORKING.md", id_of(2));
  const std::string expected = std::string("40000 episodic") + '\0' +
                               std::string(reinterpret_cast<const char*>(id_of(1).id), 20) +
                               "100644 WORKING.md" + '\0' +
                               std::string(reinterpret_cast<const char*>(id_of(2).id), 20);
  CHECK(*tree.bytes() == expected);
  CHECK(tree.entries() == 2);
  CHECK(hashed(tree) == libgit2_id(expected));
  // Hashed again with nothing changed: the same.
  CHECK(hashed(tree) == libgit2_id(expected));
}

TEST_CASE("ids set anywhere in a large tree hash as the whole bytes hash, change after change") {
  engram::git::detail::ensure_library();
  // 5,000 entries: about 250 KB, four states apart.
  TreeBytes tree = made(5000);
  REQUIRE(tree.bytes()->size() > 3 * TreeBytes::k_stride);
  CHECK(hashed(tree) == libgit2_id(*tree.bytes()));

  // Single changes at the ends and around a state's boundary, then many at once.
  const unsigned last = static_cast<unsigned>(tree.entries() - 1);
  // Every entry is 41 bytes ("100644 note-00000.md\0" and 20 of id).
  REQUIRE(tree.bytes()->size() == 41 * tree.entries());
  const unsigned near = TreeBytes::k_stride / 41; // its id just after the first boundary
  std::vector<std::vector<unsigned>> rounds = {
      {0}, {last}, {near}, {near - 1}, {near + 1}, {2 * near}, {last, 0}, {2500}};
  unsigned seed = 5;
  for (int round = 0; round < 40; ++round) {
    std::vector<unsigned> entries;
    for (unsigned n = 1 + round % 4; n > 0; --n) {
      seed = seed * 1103515245 + 12345;
      entries.push_back((seed >> 16) % (last + 1));
    }
    rounds.push_back(entries);
  }
  unsigned next = 100000;
  for (const auto& entries : rounds) {
    for (const unsigned entry : entries) {
      tree.set_id(entry, id_of(next++));
    }
    INFO("entries " << fmt::format("{}", fmt::join(entries, ", ")));
    REQUIRE(hashed(tree) == libgit2_id(*tree.bytes()));
  }
}

TEST_CASE("a tree's bytes unshared are changed alone, the bytes handed out kept as they were") {
  TreeBytes tree = made(2000);
  (void)hashed(tree);
  const auto handed = tree.bytes(); // as a LaterDeflate holds them
  const std::string before = *handed;
  tree.unshare();
  tree.set_id(10, id_of(77));
  CHECK(*handed == before);
  CHECK(*tree.bytes() != before);
  CHECK(hashed(tree) == libgit2_id(*tree.bytes()));
}

TEST_CASE("an entry added after a hash starts the states over") {
  engram::git::detail::ensure_library();
  TreeBytes tree = made(3000);
  (void)hashed(tree);
  tree.add(0100644, "zz-last.md", id_of(9));
  CHECK(hashed(tree) == libgit2_id(*tree.bytes()));
}
