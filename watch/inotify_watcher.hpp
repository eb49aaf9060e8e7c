// The inotify backend (Linux): one watch per folder of the store, added by
// walking the tree. The state folder and .git's insides are never watched; a
// subtree left without watches (ENOSPC) is polled with the stat walk.
#pragma once

#include "watch/stamps.hpp"

#include <cstdint>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace engram::watch {

// A watcher of one store's folder tree through inotify.
class InotifyWatcher final : public Watcher {
public:
  // Opens a non-blocking inotify descriptor and watches every folder of
  // `root`. Throws engram::Error when inotify cannot be used at all.
  InotifyWatcher(const std::filesystem::path& root, const WatchOptions& options);

  // Closes the descriptor, which drops every watch.
  ~InotifyWatcher() override;

  InotifyWatcher(const InotifyWatcher&) = delete;
  InotifyWatcher& operator=(const InotifyWatcher&) = delete;

  // "inotify".
  std::string_view name() const override { return "inotify"; }

  // The inotify descriptor.
  int fd() const override { return m_fd; }

  // Negative while every folder has a watch; the poll interval once a subtree is polled.
  std::chrono::milliseconds poll_interval() const override;

  // Reads every pending event, walks the polled subtrees when their interval
  // is due or no event came, and reports the touched paths as they are now on disk.
  void read_changes(std::vector<Change>& out) override;

  // How many folders have an inotify watch (for `engram status` and tests).
  std::size_t watch_count() const { return m_dirs_by_wd.size(); }

  // How many subtrees are polled because watches ran out.
  std::size_t polled_count() const { return m_polled.size(); }

private:
  // Lets tests feed events (such as IN_Q_OVERFLOW) through handle_event.
  friend struct InotifyTestAccess;

  // Whether walking a new folder reports the files found in it.
  enum class Report { yes, no };

  // What adding one watch came to.
  enum class Added { watched, out_of_watches, gone };

  // Drops every watch and walks the whole store again (at start, after an overflow).
  void establish();

  // Watches `relative` and every folder below it, noting their files; a folder
  // for which no watch is left is polled with everything below it.
  void watch_tree(const std::string& relative, Report report);

  // Adds the watch of one folder.
  Added add_watch(const std::string& relative);

  // Polls the subtree `relative` from now on, and says so once in the log.
  void poll_tree(const std::string& relative, Report report);

  // Drops the watches and polled subtrees of `relative` and below, and
  // touches the files known there so those that are gone are reported removed.
  void forget_tree(const std::string& relative);

  // Acts on one inotify event; `name` is empty for events on the folder itself.
  void handle_event(int wd, std::uint32_t mask, std::string_view name);

  // Marks a path to be checked against the disk when the changes are read.
  void touch(const std::string& relative);

  // Walks the polled subtrees and notes what differs from their last walk.
  void walk_polled();

  // Turns the touched paths, the polled changes and a pending rescan into changes.
  void flush(std::vector<Change>& out);

  std::filesystem::path m_root;                      // the store's folder, absolute
  std::string m_state_dir;                           // the state folder, store-relative
  std::chrono::milliseconds m_interval;              // how often polled subtrees are walked
  std::size_t m_max_watches;                         // 0, or a limit below the kernel's
  int m_fd = -1;                                     // the inotify descriptor
  std::unordered_map<int, std::string> m_dirs_by_wd; // watched folder of each watch
  std::map<std::string, int> m_wds_by_dir;           // watch of each watched folder, sorted
  std::set<std::string> m_files;                     // files known in watched folders, sorted
  std::map<std::string, Stamps> m_polled;            // polled subtrees and their last walk
  std::chrono::steady_clock::time_point m_walked;    // when the polled subtrees were walked
  std::vector<std::string> m_touched;                // paths to check, in first-touch order
  std::unordered_set<std::string> m_touched_set;     // the same, for lookups
  std::vector<Change> m_polled_changes;              // what polled subtrees showed
  bool m_rescan = false;                             // an overflow happened since the last read
  bool m_warned = false;                             // the out-of-watches warning was logged
};

} // namespace engram::watch
