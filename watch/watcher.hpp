// Watcher: tells the daemon which files of a store changed. One backend per
// file (inotify, polling) behind this interface, chosen by make_watcher; the
// only place with platform #ifdefs is the registry.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace engram::watch {

// What happened to a path.
enum class ChangeKind {
  changed, // created, written, renamed into place
  removed, // deleted or renamed away
  rescan,  // the backend lost track (queue overflow): the whole store must be rescanned
};

// One change, with a store-relative path (empty for rescan).
struct Change {
  std::filesystem::path path;
  ChangeKind kind = ChangeKind::changed;
};

// How to watch a store.
struct WatchOptions {
  std::string backend = "auto";      // auto | inotify | poll
  int poll_interval_ms = 2000;       // for the polling backend (and inotify's ENOSPC fallback)
  std::string state_dir = ".engram"; // engram's own state: never watched
  // The most folders inotify may watch before the rest is polled as if the
  // kernel had said ENOSPC; 0 = as many as the kernel allows. For tests.
  std::size_t max_watches = 0;
};

// A watcher of one store's folder tree.
class Watcher {
public:
  virtual ~Watcher() = default;

  // The backend's name, for logs and `engram status`.
  virtual std::string_view name() const = 0;

  // A file descriptor that becomes readable when changes are pending (and
  // stays readable while any are left: wait on it level-triggered), or -1 for
  // a backend that must be asked on a timer instead.
  virtual int fd() const = 0;

  // How long the daemon may wait before calling read_changes even if fd() did
  // not become readable; a negative value means "only when fd() is readable".
  // Ask again after each read_changes: inotify starts polling a subtree when
  // it runs out of watches.
  virtual std::chrono::milliseconds poll_interval() const = 0;

  // Reads what is pending without blocking and appends it to `out`, at most
  // one change per path (the last kind wins; a file that came and went within
  // the call is not reported). Ignored paths (editor temporaries, .git except
  // its top-level lock files, the state folder) are never reported. Folders
  // are not reported, their files are.
  virtual void read_changes(std::vector<Change>& out) = 0;
};

// Makes the backend `options.backend` names for the store at `root`
// ("auto": inotify on Linux, polling elsewhere or when inotify cannot start).
// Throws engram::Error when the backend is unknown or cannot start.
std::unique_ptr<Watcher> make_watcher(const std::filesystem::path& root,
                                      const WatchOptions& options);

// True for paths that are never changes: editor temporaries (*.swp, *.swo,
// *.swx, *~, #*#, .#*, 4913, .~lock.*, *.tmp, which covers engram's own
// .name.XXXXXX.tmp), anything in .git except its top-level index.lock,
// MERGE_HEAD and the other git markers, and the state folder.
bool is_ignored(const std::filesystem::path& relative, std::string_view state_dir);

// True for the top-level .git entries that show a git operation of the user is
// under way (index.lock, MERGE_HEAD, CHERRY_PICK_HEAD, REVERT_HEAD,
// rebase-merge, rebase-apply): the daemon waits while one exists. They are
// reported as changes when they appear and vanish.
bool is_git_marker(const std::filesystem::path& relative);

// True for folders a watcher never walks into: the state folder, and any
// folder in or under a .git (the top-level .git itself is looked at, only for
// its markers).
bool is_pruned(const std::filesystem::path& relative, std::string_view state_dir);

} // namespace engram::watch
