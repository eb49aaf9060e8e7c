// The inotify backend. Events only mark paths as touched; read_changes then
// looks at each touched path on disk, so an editor's save (in place, temp and
// rename, or backup rename) is one change for the real name, and a temporary
// that came and went within one read is no change at all.
#include "watch/inotify_watcher.hpp"

#include "base/error.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <spdlog/spdlog.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

namespace engram::watch {

namespace {

namespace fs = std::filesystem;

// What each folder's watch asks for. IN_MODIFY too, not only the close or
// rename that ends a save: an agent that keeps a file open for appending
// (`exec 3>>WORKING.md`) never closes it, and its lines must still be seen
// (a write in progress is settled like any burst, and a file still changing
// while a snapshot reads it waits for the next). IN_EXCL_UNLINK: nothing
// about files already deleted but still open.
constexpr std::uint32_t k_mask = IN_CREATE | IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_FROM |
                                 IN_MOVED_TO | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF |
                                 IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK;

// Bytes read from the descriptor at once: hundreds of events.
constexpr std::size_t k_buffer_size = 64 * 1024;

// Reads per read_changes call, so a writer faster than us cannot keep the
// daemon in one call; the descriptor stays readable and the next call goes on.
constexpr int k_max_reads = 64;

// The sysctl that limits watches, and where to read its value.
constexpr std::string_view k_watch_sysctl = "fs.inotify.max_user_watches";
constexpr const char* k_watch_sysctl_file = "/proc/sys/fs/inotify/max_user_watches";

// `parent` joined with `name` as a store-relative generic path.
std::string join(const std::string& parent, std::string_view name) {
  return parent.empty() ? std::string(name) : parent + '/' + std::string(name);
}

// True when `path` is `relative` or below it; everything is below "".
bool is_under(const std::string& path, const std::string& relative) {
  if (relative.empty() || path == relative) {
    return true;
  }
  return path.size() > relative.size() && path.starts_with(relative) &&
         path[relative.size()] == '/';
}

// The key of a map's entry or a set's element.
template <typename Entry> const std::string& key_of(const Entry& entry) {
  if constexpr (requires { entry.first; }) {
    return entry.first;
  } else {
    return entry;
  }
}

// Calls `visit` with each entry of the sorted `map` at or below `relative`;
// `visit` returns true to erase the entry. "a-b" sorts between "a" and "a/b",
// so "a" itself and "a/..." are two ranges.
template <typename Map, typename Visit>
void visit_under(Map& map, const std::string& relative, Visit visit) {
  auto visit_range = [&](auto it) {
    while (it != map.end() && is_under(key_of(*it), relative)) {
      it = visit(*it) ? map.erase(it) : std::next(it);
    }
  };
  if (relative.empty()) {
    visit_range(map.begin());
    return;
  }
  if (auto it = map.find(relative); it != map.end() && visit(*it)) {
    map.erase(it);
  }
  visit_range(map.lower_bound(relative + '/'));
}

// The current watch limit, or "unknown".
std::string watch_limit() {
  std::ifstream in(k_watch_sysctl_file);
  std::string value;
  return in >> value ? value : std::string("unknown");
}

// True when `path` exists and is a file (or, for a git marker, anything).
bool is_present(const fs::path& path, const std::string& relative) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) {
    return false;
  }
  return !S_ISDIR(status.st_mode) || is_git_marker(relative);
}

} // namespace

InotifyWatcher::InotifyWatcher(const fs::path& root, const WatchOptions& options)
    : m_root(watch_root(root)), m_state_dir(relative_state_dir(m_root, options)),
      m_interval(options.poll_interval_ms), m_max_watches(options.max_watches) {
  std::error_code error;
  if (!fs::is_directory(m_root, error)) {
    throw Error("cannot watch {}: not a folder", m_root.string());
  }
  if (options.poll_interval_ms <= 0) {
    throw Error("cannot watch {}: the poll interval must be positive, not {} ms", m_root.string(),
                options.poll_interval_ms);
  }
  m_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (m_fd < 0) {
    const int code = errno;
    throw Error("cannot start inotify for {}: {}{}", m_root.string(), std::strerror(code),
                code == EMFILE ? " (raise fs.inotify.max_user_instances)" : "");
  }
  establish();
  if (m_wds_by_dir.empty() && m_polled.empty()) {
    ::close(m_fd);
    throw Error("cannot watch {}: the folder cannot be read", m_root.string());
  }
}

InotifyWatcher::~InotifyWatcher() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

std::chrono::milliseconds InotifyWatcher::poll_interval() const {
  return m_polled.empty() ? std::chrono::milliseconds(-1) : m_interval;
}

void InotifyWatcher::establish() {
  // Dropping every watch first (rather than diffing) keeps the bookkeeping
  // simple; their IN_IGNORED events name watches we no longer know, and are dropped.
  for (const auto& [wd, dir] : m_dirs_by_wd) {
    ::inotify_rm_watch(m_fd, wd);
  }
  m_dirs_by_wd.clear();
  m_wds_by_dir.clear();
  m_files.clear();
  m_polled.clear();
  watch_tree({}, Report::no);
}

InotifyWatcher::Added InotifyWatcher::add_watch(const std::string& relative) {
  if (m_max_watches != 0 && m_dirs_by_wd.size() >= m_max_watches) {
    return Added::out_of_watches;
  }
  const fs::path path = relative.empty() ? m_root : m_root / relative;
  const int wd = ::inotify_add_watch(m_fd, path.c_str(), k_mask);
  if (wd < 0) {
    const int code = errno;
    if (code == ENOSPC) {
      return Added::out_of_watches;
    }
    if (code != ENOENT && code != ENOTDIR) {
      spdlog::debug("{}: cannot watch {}: {}", m_root.string(), relative, std::strerror(code));
    }
    return Added::gone;
  }
  // The folder's inode may be watched under an older name (a rename whose
  // events were lost), and the name may have had another inode's watch.
  if (auto old = m_dirs_by_wd.find(wd); old != m_dirs_by_wd.end() && old->second != relative) {
    if (auto it = m_wds_by_dir.find(old->second); it != m_wds_by_dir.end() && it->second == wd) {
      m_wds_by_dir.erase(it);
    }
  }
  if (auto old = m_wds_by_dir.find(relative); old != m_wds_by_dir.end() && old->second != wd) {
    ::inotify_rm_watch(m_fd, old->second);
    m_dirs_by_wd.erase(old->second);
  }
  m_dirs_by_wd[wd] = relative;
  m_wds_by_dir[relative] = wd;
  return Added::watched;
}

void InotifyWatcher::watch_tree(const std::string& relative, Report report) {
  switch (add_watch(relative)) {
  case Added::gone:
    return;
  case Added::out_of_watches:
    poll_tree(relative, report);
    return;
  case Added::watched:
    break;
  }
  // Listed after the watch exists: a file created meanwhile is seen twice
  // (once here, once as an event), never missed.
  std::error_code error;
  fs::directory_iterator it(relative.empty() ? m_root : m_root / relative, error);
  for (; !error && it != fs::directory_iterator(); it.increment(error)) {
    const std::string child = join(relative, it->path().filename().string());
    std::error_code type_error;
    const fs::file_status status = it->symlink_status(type_error);
    if (type_error) {
      continue;
    }
    if (fs::is_directory(status) && !is_git_marker(child)) {
      if (!is_pruned(child, m_state_dir)) {
        watch_tree(child, report);
      }
      continue;
    }
    if (is_ignored(child, m_state_dir)) {
      continue;
    }
    if (report == Report::yes) {
      touch(child);
    } else {
      m_files.insert(child);
    }
  }
}

void InotifyWatcher::poll_tree(const std::string& relative, Report report) {
  Stamps stamps = take_stamps(m_root, relative, m_state_dir);
  if (report == Report::yes) {
    for (const auto& [path, stamp] : stamps) {
      m_polled_changes.push_back({path, ChangeKind::changed});
    }
  }
  m_polled[relative] = std::move(stamps);
  m_walked = std::chrono::steady_clock::now();
  if (!m_warned) {
    m_warned = true;
    spdlog::warn("{}: out of inotify watches, so {} (and any other folder left without one) is "
                 "polled every {} ms instead. Raise {} (now {}): `sudo sysctl {}=524288`, and "
                 "add that line to a file in /etc/sysctl.d/ to keep it",
                 m_root.string(), relative.empty() ? std::string(".") : relative,
                 m_interval.count(), k_watch_sysctl, watch_limit(), k_watch_sysctl);
  }
}

void InotifyWatcher::forget_tree(const std::string& relative) {
  visit_under(m_wds_by_dir, relative, [this](const auto& entry) {
    ::inotify_rm_watch(m_fd, entry.second); // EINVAL when the kernel dropped it already
    m_dirs_by_wd.erase(entry.second);
    return true;
  });
  // Polled files become known files, so touching them reports those that are gone.
  visit_under(m_polled, relative, [this](const auto& entry) {
    for (const auto& [path, stamp] : entry.second) {
      m_files.insert(path);
    }
    return true;
  });
  visit_under(m_files, relative, [this](const std::string& path) {
    touch(path);
    return false;
  });
}

void InotifyWatcher::handle_event(int wd, std::uint32_t mask, std::string_view name) {
  if ((mask & IN_Q_OVERFLOW) != 0) {
    // Events were lost: what we touched no longer tells the whole story, and
    // watches of folders created meanwhile are missing. Rescan and re-watch.
    spdlog::warn("{}: the inotify queue overflowed; rescanning the store", m_root.string());
    m_rescan = true;
    m_touched.clear();
    m_touched_set.clear();
    m_polled_changes.clear();
    establish();
    return;
  }
  const auto found = m_dirs_by_wd.find(wd);
  if (found == m_dirs_by_wd.end()) {
    return; // a watch we dropped; its folder was dealt with then
  }
  const std::string dir = found->second;
  if ((mask & IN_IGNORED) != 0) {
    if (auto it = m_wds_by_dir.find(dir); it != m_wds_by_dir.end() && it->second == wd) {
      m_wds_by_dir.erase(it);
    }
    m_dirs_by_wd.erase(found);
    return;
  }
  if ((mask & (IN_UNMOUNT | IN_DELETE_SELF | IN_MOVE_SELF)) != 0) {
    // Other folders are dealt with by their parent's event; the root has none.
    if (dir.empty() || (mask & IN_UNMOUNT) != 0) {
      spdlog::warn("{}: the store's folder was moved, deleted or unmounted", m_root.string());
      m_rescan = true;
    }
    return;
  }
  if (name.empty()) {
    return;
  }
  const std::string relative = join(dir, name);
  if ((mask & IN_ISDIR) != 0 && !is_git_marker(relative)) {
    if (is_pruned(relative, m_state_dir)) {
      return;
    }
    if ((mask & (IN_CREATE | IN_MOVED_TO)) != 0) {
      forget_tree(relative); // whatever was known under this name before
      watch_tree(relative, Report::yes);
    } else if ((mask & (IN_DELETE | IN_MOVED_FROM)) != 0) {
      forget_tree(relative);
    }
    return;
  }
  if (!is_ignored(relative, m_state_dir)) {
    touch(relative);
  }
}

void InotifyWatcher::touch(const std::string& relative) {
  if (m_touched_set.insert(relative).second) {
    m_touched.push_back(relative);
  }
}

void InotifyWatcher::read_changes(std::vector<Change>& out) {
  alignas(inotify_event) std::array<char, k_buffer_size> buffer;
  bool any_event = false;
  for (int reads = 0; reads < k_max_reads; ++reads) {
    const ssize_t got = ::read(m_fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      break;
    }
    if (got < 0) {
      throw Error("{}: cannot read inotify events: {}", m_root.string(), std::strerror(errno));
    }
    const auto size = static_cast<std::size_t>(got);
    any_event = any_event || size > 0;
    for (std::size_t offset = 0; offset + sizeof(inotify_event) <= size;) {
      inotify_event event{};
      std::memcpy(&event, buffer.data() + offset, sizeof(inotify_event));
      const char* name = buffer.data() + offset + sizeof(inotify_event);
      handle_event(event.wd, event.mask, std::string_view(name, ::strnlen(name, event.len)));
      offset += sizeof(inotify_event) + event.len;
    }
  }
  // Polled subtrees are large (that is why watches ran out), so they are not
  // walked on every event: only on a call with no events (the daemon's timer)
  // or when a busy stream of events has kept the timer's call from coming.
  const auto now = std::chrono::steady_clock::now();
  if (!m_polled.empty() && (!any_event || now - m_walked >= m_interval)) {
    m_walked = now;
    walk_polled();
  }
  flush(out);
}

void InotifyWatcher::walk_polled() {
  for (auto it = m_polled.begin(); it != m_polled.end();) {
    Stamps stamps = take_stamps(m_root, it->first, m_state_dir);
    diff_stamps(it->second, stamps, m_polled_changes);
    std::error_code error;
    if (!fs::is_directory(m_root / it->first, error)) {
      it = m_polled.erase(it); // gone: its files were just reported removed
    } else {
      it->second = std::move(stamps);
      ++it;
    }
  }
}

void InotifyWatcher::flush(std::vector<Change>& out) {
  std::vector<Change> batch;
  if (m_rescan) {
    batch.push_back({{}, ChangeKind::rescan});
  }
  for (const std::string& relative : m_touched) {
    if (is_present(m_root / relative, relative)) {
      m_files.insert(relative);
      batch.push_back({relative, ChangeKind::changed});
    } else if (m_files.erase(relative) > 0) {
      batch.push_back({relative, ChangeKind::removed});
    } // else it came and went since the last read: a temporary, no change
  }
  batch.insert(batch.end(), m_polled_changes.begin(), m_polled_changes.end());
  // One change per path, the last kind winning, in first-seen order.
  std::unordered_map<std::string, std::size_t> seen;
  const std::size_t first = out.size();
  for (Change& change : batch) {
    auto [it, inserted] = seen.emplace(change.path.generic_string(), out.size() - first);
    if (inserted) {
      out.push_back(std::move(change));
    } else {
      out[first + it->second].kind = change.kind;
    }
  }
  m_touched.clear();
  m_touched_set.clear();
  m_polled_changes.clear();
  m_rescan = false;
}

} // namespace engram::watch
