// Folders: HEAD's trees, parsed once and kept by id, so a one-file commit on
// a big store neither inflates nor parses its folder's tree (20,000 entries
// in a big semantic/) to compare the file with HEAD's and to write the new
// tree, but reads and writes the parsed form; a large tree's bytes are kept
// too, and patched where only ids change (see TreeBytes). Private to git/.
#pragma once

#include "git/loose_object.hpp"
#include "git/tree_bytes.hpp"

#include <cstdint>
#include <git2.h>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace engram::git::detail {

// A change to make to a tree: the file at `path` set to `id` with `mode`, or removed.
struct TreeChange {
  std::string path;
  std::optional<std::pair<git_oid, std::uint32_t>> to; // nullopt: removed
};

// The trees this process read or wrote, by id. A tree's id names its bytes,
// so what is kept can never be stale; it is only bounded, by forgetting the
// trees the last few commits did not use.
class Folders {
public:
  // The id and mode of the file (a blob or a link) at `path` under the tree
  // `root`; nullopt when there is none, a folder is there, or a tree on the
  // way cannot be read.
  std::optional<std::pair<git_oid, std::uint32_t>>
  file_at(git_repository* repository, const git_oid& root, std::string_view path);

  // Writes the tree `root` (nullptr: an empty tree) with `changes` applied
  // into the object database. A folder left empty goes from its parent, as
  // in git. False (nothing of the new trees referenced) when a tree cannot
  // be read or written.
  bool update(git_repository* repository, const git_oid* root,
              const std::vector<TreeChange>& changes, git_oid& out);

  // Has the large trees the last update wrote stored deflated on a helper
  // thread (see LaterDeflate): called once the commit naming them is made.
  void deflate_later() { m_later.start(); }

  // How many trees are kept (for tests).
  std::size_t size() const { return m_trees.size(); }

private:
  struct Item {
    std::string name;
    std::uint32_t mode = 0;
    git_oid id{};
    bool is_tree() const { return mode == GIT_FILEMODE_TREE; }
  };
  struct Tree {
    std::vector<Item> items; // in git's order (a folder's name sorts as if it ended in '/')
    std::uint64_t used = 0;  // the commit (m_commits) that last used it
    // A large tree's bytes as written, entry for entry the items: patched
    // while changes only set ids, dropped at any other (see TreeBytes).
    std::unique_ptr<TreeBytes> bytes;
  };
  struct IdHash {
    std::size_t operator()(const git_oid& id) const;
  };
  struct IdEqual {
    bool operator()(const git_oid& a, const git_oid& b) const { return git_oid_equal(&a, &b) != 0; }
  };

  // The item named `name` (a folder's or a file's), or items.end().
  static std::vector<Item>::iterator find(std::vector<Item>& items, std::string_view name,
                                          bool folder);

  // The parsed tree `id`, read from the object database unless kept; nullptr when unreadable.
  Tree* tree(git_repository* repository, const git_oid& id);

  // Sets the id of the item named `name` (a folder's or a file's) in `work`
  // in place, in its bytes too, when it is there with `mode` and nothing
  // else of that name is; false, `work` as it was, when not.
  static bool set_in_place(Tree& work, std::string_view name, bool folder, const git_oid& id,
                           std::uint32_t mode);

  // Writes `tree` as a tree (from its bytes when it kept them); false when
  // the object database refuses.
  bool write(git_repository* repository, Tree tree, git_oid& out);

  // Applies the changes whose paths start at `from` (the part after the
  // folder this tree is) to the tree `id` (nullptr: none yet). `out` is
  // nullopt when the folder ends up empty.
  bool apply(git_repository* repository, const git_oid* id,
             std::vector<std::pair<std::string_view, const TreeChange*>> changes,
             std::optional<git_oid>& out, bool keep_empty);

  // Forgets the trees no recent commit used.
  void forget_unused();

  std::unordered_map<git_oid, Tree, IdHash, IdEqual> m_trees;
  std::uint64_t m_commits = 0;
  LaterDeflate m_later; // the large trees written stored, deflated after the commit
};

} // namespace engram::git::detail
