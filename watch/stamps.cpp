// The stat walk, and the stamp index the FSEvents backend keeps with it.
#include "watch/stamps.hpp"

#include "base/platform.hpp"

#include <set>
#include <sys/stat.h>

namespace engram::watch {

namespace {

namespace fs = std::filesystem;

// `parent` joined with `name` as a store-relative generic path.
std::string join(const std::string& parent, const std::string& name) {
  return parent.empty() ? name : parent + '/' + name;
}

// True when a folder above `path` is in `paths` too.
bool under_another(const std::string& path, const std::set<std::string>& paths) {
  for (auto slash = path.rfind('/'); slash != std::string::npos && slash > 0;
       slash = path.rfind('/', slash - 1)) {
    if (paths.count(path.substr(0, slash)) != 0) {
      return true;
    }
  }
  return false;
}

// The stamp of what lstat said about a file.
Stamp stamp_of(const struct stat& status) {
  return Stamp{platform::modified_ns(status), static_cast<std::uint64_t>(status.st_size),
               static_cast<std::uint64_t>(status.st_ino)};
}

// Adds the stamps of the folder `relative` and below to `stamps`.
void walk(const fs::path& root, const std::string& relative, std::string_view state_dir,
          Stamps& stamps) {
  std::error_code error;
  fs::directory_iterator it(root / relative, error);
  for (; !error && it != fs::directory_iterator(); it.increment(error)) {
    const std::string child = join(relative, it->path().filename().string());
    struct stat status {};
    if (::lstat(it->path().c_str(), &status) != 0) {
      continue; // gone since it was listed
    }
    if (S_ISDIR(status.st_mode) && !is_git_marker(child)) {
      if (!is_pruned(child, state_dir)) {
        walk(root, child, state_dir, stamps);
      }
      continue;
    }
    if (is_ignored(child, state_dir)) {
      continue;
    }
    stamps[child] = stamp_of(status);
  }
}

} // namespace

fs::path watch_root(const fs::path& root) {
  std::error_code error;
  fs::path path = fs::canonical(root, error);
  if (error) {
    path = fs::absolute(root, error).lexically_normal(); // missing: the caller says so
  }
  if (!path.has_filename() && path.has_parent_path() && path != path.root_path()) {
    path = path.parent_path(); // "/store/" → "/store"
  }
  return path;
}

std::string relative_state_dir(const fs::path& root, const WatchOptions& options) {
  const fs::path state(options.state_dir);
  if (state.is_relative()) {
    return state.lexically_normal().generic_string();
  }
  std::error_code error;
  fs::path absolute = fs::weakly_canonical(state, error);
  if (error) {
    absolute = state.lexically_normal();
  }
  const fs::path relative = absolute.lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..") {
    return {}; // outside the store: nothing to prune
  }
  return relative.generic_string();
}

Stamps take_stamps(const fs::path& root, const std::string& under, std::string_view state_dir) {
  Stamps stamps;
  walk(root, under, state_dir, stamps);
  return stamps;
}

void diff_stamps(const Stamps& before, const Stamps& after, std::vector<Change>& out) {
  // Both maps are sorted: one merge pass.
  auto old_it = before.begin();
  auto new_it = after.begin();
  while (old_it != before.end() || new_it != after.end()) {
    if (new_it == after.end() || (old_it != before.end() && old_it->first < new_it->first)) {
      out.push_back({old_it->first, ChangeKind::removed});
      ++old_it;
    } else if (old_it == before.end() || new_it->first < old_it->first) {
      out.push_back({new_it->first, ChangeKind::changed});
      ++new_it;
    } else {
      if (old_it->second != new_it->second) {
        out.push_back({new_it->first, ChangeKind::changed});
      }
      ++old_it;
      ++new_it;
    }
  }
}

StampIndex::StampIndex(fs::path root, std::string state_dir)
    : m_root(std::move(root)), m_state_dir(std::move(state_dir)),
      m_stamps(take_stamps(m_root, {}, m_state_dir)) {}

void StampIndex::refresh(const std::vector<std::string>& touched, std::vector<Change>& out) {
  const std::set<std::string> paths(touched.begin(), touched.end());
  if (paths.count("") != 0) {
    refresh_all(out);
    return;
  }
  for (const std::string& path : paths) {
    if (under_another(path, paths)) {
      continue; // refreshed with the folder above it
    }
    const Stamps before = take_at(path);
    Stamps after = stamps_at(path);
    diff_stamps(before, after, out);
    m_stamps.merge(after);
  }
}

void StampIndex::refresh_all(std::vector<Change>& out) {
  Stamps stamps = take_stamps(m_root, {}, m_state_dir);
  diff_stamps(m_stamps, stamps, out);
  m_stamps = std::move(stamps);
}

Stamps StampIndex::take_at(const std::string& relative) {
  Stamps taken;
  if (auto exact = m_stamps.extract(relative)) {
    taken.insert(std::move(exact));
  }
  // What lies under a folder is contiguous from "folder/" on; "folder-x" or
  // "folder.md" may sort between the folder's own name and it.
  const std::string folder = relative + '/';
  auto it = m_stamps.lower_bound(folder);
  while (it != m_stamps.end() && it->first.compare(0, folder.size(), folder) == 0) {
    taken.insert(m_stamps.extract(it++));
  }
  return taken;
}

Stamps StampIndex::stamps_at(const std::string& relative) const {
  struct stat status {};
  if (::lstat((m_root / relative).c_str(), &status) != 0) {
    return {}; // gone: whatever was at and under it is removed
  }
  if (S_ISDIR(status.st_mode) && !is_git_marker(relative)) {
    return is_pruned(relative, m_state_dir) ? Stamps{} : take_stamps(m_root, relative, m_state_dir);
  }
  if (is_ignored(relative, m_state_dir)) {
    return {};
  }
  return Stamps{{relative, stamp_of(status)}};
}

} // namespace engram::watch
