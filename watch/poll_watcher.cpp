// The stat walk and the polling backend built on it.
#include "watch/poll_watcher.hpp"

#include "base/error.hpp"
#include "base/platform.hpp"

#include <sys/stat.h>

namespace engram::watch {

namespace {

namespace fs = std::filesystem;

// `parent` joined with `name` as a store-relative generic path.
std::string join(const std::string& parent, const std::string& name) {
  return parent.empty() ? name : parent + '/' + name;
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
    stamps[child] = Stamp{platform::modified_ns(status), static_cast<std::uint64_t>(status.st_size),
                          static_cast<std::uint64_t>(status.st_ino)};
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

PollWatcher::PollWatcher(const fs::path& root, const WatchOptions& options)
    : m_root(watch_root(root)), m_state_dir(relative_state_dir(m_root, options)),
      m_interval(options.poll_interval_ms) {
  std::error_code error;
  if (!fs::is_directory(m_root, error)) {
    throw Error("cannot watch {}: not a folder", m_root.string());
  }
  if (options.poll_interval_ms <= 0) {
    throw Error("cannot poll {}: the interval must be positive, not {} ms", m_root.string(),
                options.poll_interval_ms);
  }
  m_stamps = take_stamps(m_root, {}, m_state_dir);
}

void PollWatcher::read_changes(std::vector<Change>& out) {
  Stamps stamps = take_stamps(m_root, {}, m_state_dir);
  diff_stamps(m_stamps, stamps, out);
  m_stamps = std::move(stamps);
}

} // namespace engram::watch
