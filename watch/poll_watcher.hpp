// The polling backend: a stat walk of the store compared with the previous
// one. It works everywhere, and inotify uses the same walk for a subtree it
// has no watches left for.
#pragma once

#include "watch/watcher.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace engram::watch {

// What the stat walk remembers of one file: enough to tell that it changed.
struct Stamp {
  std::int64_t mtime_ns = 0; // modification time, nanoseconds since the epoch
  std::uint64_t size = 0;    // size in bytes
  std::uint64_t inode = 0;   // inode number: a rename over the file changes it
  bool operator==(const Stamp&) const = default;
};

// The stamps of every file (not folder) under one folder, by store-relative
// generic path; git markers count as files whatever their type.
using Stamps = std::map<std::string, Stamp>;

// Walks the folder `under` (store-relative, "" for the whole store) of `root`
// without following links, skipping pruned folders and ignored files. A
// folder that does not exist has no stamps.
Stamps take_stamps(const std::filesystem::path& root, const std::string& under,
                   std::string_view state_dir);

// Appends to `out` what differs from `before` to `after`: new or different
// stamps are changed, missing ones removed.
void diff_stamps(const Stamps& before, const Stamps& after, std::vector<Change>& out);

// A watcher that walks the store each time it is asked.
class PollWatcher final : public Watcher {
public:
  // Takes the first walk of `root`, so read_changes reports what differs from now on.
  PollWatcher(const std::filesystem::path& root, const WatchOptions& options);

  // "poll".
  std::string_view name() const override { return "poll"; }

  // -1: there is nothing to wait on, only a timer.
  int fd() const override { return -1; }

  // The configured interval.
  std::chrono::milliseconds poll_interval() const override { return m_interval; }

  // Walks the store again and reports what differs from the last walk.
  void read_changes(std::vector<Change>& out) override;

private:
  std::filesystem::path m_root;         // the store's folder
  std::string m_state_dir;              // the state folder, store-relative
  std::chrono::milliseconds m_interval; // how often the daemon should ask
  Stamps m_stamps;                      // the previous walk
};

// The folder of a store as watchers use it: absolute, links resolved (a watch
// does not follow a link), no trailing separator.
std::filesystem::path watch_root(const std::filesystem::path& root);

// The state folder of `options` relative to `root` ("" when it lies outside).
std::string relative_state_dir(const std::filesystem::path& root, const WatchOptions& options);

} // namespace engram::watch
