// Folders: trees parsed from and serialised to git's tree format ("<octal
// mode> <name>\0<20-byte id>" per entry, in git's order), kept by id.
#include "git/folders.hpp"

#include "git/libgit2.hpp"
#include "git/loose_object.hpp"

#include <algorithm>
#include <cstring>
#include <map>

namespace engram::git::detail {

namespace {

// How many commits a tree no commit used is kept for: HEAD's trees stay,
// the ones they replaced go.
constexpr std::uint64_t k_kept_commits = 2;

// git's order of tree entries: by name, a folder's as if it ended in '/'.
int compare(std::string_view a, bool a_tree, std::string_view b, bool b_tree) {
  const std::size_t n = std::min(a.size(), b.size());
  if (const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n); c != 0) {
    return c;
  }
  const auto next = [n](std::string_view name, bool tree) -> int {
    return name.size() > n ? static_cast<unsigned char>(name[n]) : tree ? '/' : 0;
  };
  return next(a, a_tree) - next(b, b_tree);
}

} // namespace

std::vector<Folders::Item>::iterator Folders::find(std::vector<Item>& items, std::string_view name,
                                                   bool folder) {
  const auto it = std::lower_bound(items.begin(), items.end(), name,
                                   [&](const Item& item, std::string_view key) {
                                     return compare(item.name, item.is_tree(), key, folder) < 0;
                                   });
  return it != items.end() && it->name == name && it->is_tree() == folder ? it : items.end();
}

std::size_t Folders::IdHash::operator()(const git_oid& id) const {
  std::size_t hash = 0;
  std::memcpy(&hash, id.id, sizeof hash); // an object id is uniformly distributed already
  return hash;
}

Folders::Tree* Folders::tree(git_repository* repository, const git_oid& id) {
  if (const auto it = m_trees.find(id); it != m_trees.end()) {
    it->second.used = m_commits;
    return &it->second;
  }
  Owned<git_tree, git_tree_free> read;
  if (git_tree_lookup(&read.pointer, repository, &id) != 0) {
    return nullptr;
  }
  Tree parsed;
  const std::size_t count = git_tree_entrycount(read.pointer);
  parsed.items.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const git_tree_entry* entry = git_tree_entry_byindex(read.pointer, i);
    parsed.items.push_back(Item{git_tree_entry_name(entry),
                                static_cast<std::uint32_t>(git_tree_entry_filemode_raw(entry)),
                                *git_tree_entry_id(entry)});
  }
  parsed.used = m_commits;
  return &m_trees.insert_or_assign(id, std::move(parsed)).first->second;
}

std::optional<std::pair<git_oid, std::uint32_t>>
Folders::file_at(git_repository* repository, const git_oid& root, std::string_view path) {
  Tree* at = tree(repository, root);
  while (at != nullptr) {
    const auto slash = path.find('/');
    const std::string_view name = path.substr(0, slash);
    const bool folder = slash != std::string_view::npos;
    const auto it = find(at->items, name, folder);
    if (it == at->items.end()) {
      return std::nullopt;
    }
    if (!folder) {
      if (it->mode == GIT_FILEMODE_COMMIT) {
        return std::nullopt; // a submodule's commit, not a file
      }
      return std::pair{it->id, it->mode};
    }
    path.remove_prefix(slash + 1);
    at = tree(repository, it->id);
  }
  return std::nullopt;
}

bool Folders::set_in_place(Tree& work, std::string_view name, bool folder, const git_oid& id,
                           std::uint32_t mode) {
  if (!work.bytes) {
    return false;
  }
  const auto it = find(work.items, name, folder);
  if (it == work.items.end() || it->mode != mode ||
      find(work.items, name, !folder) != work.items.end()) {
    return false;
  }
  it->id = id;
  work.bytes->set_id(static_cast<std::size_t>(it - work.items.begin()), id);
  return true;
}

bool Folders::write(git_repository* repository, Tree tree, git_oid& out) {
  int code = 0;
  if (!tree.bytes) {
    auto made = std::make_unique<TreeBytes>();
    for (const auto& item : tree.items) {
      made->add(item.mode, item.name, item.id);
    }
    if (made->bytes()->size() < LaterDeflate::k_from) {
      // A small tree is made anew each time: cheaper than keeping its bytes.
      code = write_loose(repository, GIT_OBJECT_TREE, std::move(*made->bytes()), out, &m_later);
    } else {
      tree.bytes = std::move(made);
    }
  }
  if (tree.bytes) {
    if (!tree.bytes->hash(out)) {
      git_error_set_str(GIT_ERROR_OS, "cannot hash a tree");
      return false;
    }
    code = write_loose_hashed(repository, GIT_OBJECT_TREE, tree.bytes->bytes(), out, &m_later);
  }
  if (code != 0) {
    return false;
  }
  tree.used = m_commits;
  m_trees.insert_or_assign(out, std::move(tree));
  return true;
}

bool Folders::apply(git_repository* repository, const git_oid* id,
                    std::vector<std::pair<std::string_view, const TreeChange*>> changes,
                    std::optional<git_oid>& out, bool keep_empty) {
  Tree work;
  if (id != nullptr) {
    Tree* kept = tree(repository, *id);
    if (kept == nullptr) {
      return false;
    }
    // Taken, not copied (20,000 names in a big folder): the tree is
    // replaced by the one written below, and read again should it be needed.
    work.items = std::move(kept->items);
    work.bytes = std::move(kept->bytes);
    m_trees.erase(*id);
    // The last commit's helper may still be deflating these bytes.
    if (work.bytes && m_later.busy()) {
      work.bytes->unshare();
    }
  }
  const auto erase = [&](std::string_view name) {
    for (const bool folder : {false, true}) {
      if (const auto it = find(work.items, name, folder); it != work.items.end()) {
        work.items.erase(it);
      }
    }
  };
  const auto insert = [&](Item item) {
    const auto it = std::lower_bound(work.items.begin(), work.items.end(), item,
                                     [](const Item& a, const Item& b) {
                                       return compare(a.name, a.is_tree(), b.name, b.is_tree()) < 0;
                                     });
    work.items.insert(it, std::move(item));
  };
  // Files here first, then each folder below with the changes inside it.
  std::map<std::string_view, std::vector<std::pair<std::string_view, const TreeChange*>>> below;
  std::vector<std::pair<std::string_view, const TreeChange*>> here;
  for (const auto& [rest, change] : changes) {
    const auto slash = rest.find('/');
    if (slash != std::string_view::npos) {
      below[rest.substr(0, slash)].emplace_back(rest.substr(slash + 1), change);
    } else {
      here.emplace_back(rest, change);
    }
  }
  // A few changes go in one by one (a one-file commit moves the names after
  // one); many go in one pass, since one by one each would move the rest
  // (a consolidation removes 2,000 files from one folder).
  constexpr std::size_t k_one_by_one = 16;
  if (here.size() <= k_one_by_one) {
    for (const auto& [name, change] : here) {
      if (change->to &&
          set_in_place(work, name, false, change->to->first, change->to->second)) {
        continue; // a file edited: its id set, its bytes kept
      }
      work.bytes.reset();
      erase(name);
      if (change->to) {
        insert(Item{std::string(name), change->to->second, change->to->first});
      }
    }
  } else {
    work.bytes.reset();
    std::vector<std::string_view> names;
    names.reserve(here.size());
    for (const auto& [name, change] : here) {
      names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    std::erase_if(work.items, [&](const Item& item) {
      return std::binary_search(names.begin(), names.end(), std::string_view(item.name));
    });
    for (const auto& [name, change] : here) {
      if (change->to) {
        work.items.push_back(Item{std::string(name), change->to->second, change->to->first});
      }
    }
    std::sort(work.items.begin(), work.items.end(), [](const Item& a, const Item& b) {
      return compare(a.name, a.is_tree(), b.name, b.is_tree()) < 0;
    });
  }
  for (auto& [name, inside] : below) {
    std::optional<git_oid> current;
    if (const auto it = find(work.items, name, true); it != work.items.end()) {
      current = it->id;
    }
    std::optional<git_oid> updated;
    if (!apply(repository, current ? &*current : nullptr, std::move(inside), updated, false)) {
      return false;
    }
    if (current && updated && set_in_place(work, name, true, *updated, GIT_FILEMODE_TREE)) {
      continue;
    }
    work.bytes.reset();
    erase(name);
    if (updated) {
      insert(Item{std::string(name), GIT_FILEMODE_TREE, *updated});
    }
  }
  if (work.items.empty() && !keep_empty) {
    out.reset();
    return true;
  }
  git_oid written;
  if (!write(repository, std::move(work), written)) {
    return false;
  }
  out = written;
  return true;
}

bool Folders::update(git_repository* repository, const git_oid* root,
                     const std::vector<TreeChange>& changes, git_oid& out) {
  ++m_commits;
  m_later.drop(); // an update whose commit failed: its trees stay stored
  std::vector<std::pair<std::string_view, const TreeChange*>> all;
  all.reserve(changes.size());
  for (const auto& change : changes) {
    all.emplace_back(change.path, &change);
  }
  std::optional<git_oid> written;
  const bool ok = apply(repository, root, std::move(all), written, true);
  forget_unused();
  if (!ok || !written) {
    return false;
  }
  out = *written;
  return true;
}

void Folders::forget_unused() {
  std::erase_if(m_trees,
                [&](const auto& kept) { return kept.second.used + k_kept_commits < m_commits; });
}

} // namespace engram::git::detail
