// The stat walk every backend can fall back on: what a folder's files look
// like now, compared with what they looked like before. The poll watcher walks
// the whole store each time; inotify walks a subtree it has no watches left
// for; FSEvents walks only the paths the kernel says were touched.
#pragma once

#include "watch/watcher.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

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

// The stamps of a whole store, kept up to date one touched path at a time:
// a backend that is told which paths changed, but not reliably how (FSEvents
// coalesces a create, a write and a rename into one event), asks the disk.
class StampIndex {
public:
  // Takes the first walk of `root` (a watch_root) now.
  StampIndex(std::filesystem::path root, std::string state_dir);

  // Brings the stamps at and under each of `touched` (store-relative generic
  // paths, "" for the whole store) up to date, and appends what differs to
  // `out`: a touched file, a folder renamed in or away, a file gone.
  void refresh(const std::vector<std::string>& touched, std::vector<Change>& out);

  // Walks the whole store again (events were lost) and appends what differs.
  void refresh_all(std::vector<Change>& out);

private:
  // Removes and returns the stamps at and under `relative`.
  Stamps take_at(const std::string& relative);

  // The stamps the disk has now at and under `relative`.
  Stamps stamps_at(const std::string& relative) const;

  std::filesystem::path m_root; // the store's folder
  std::string m_state_dir;      // the state folder, store-relative
  Stamps m_stamps;              // as of the last refresh
};

// The folder of a store as watchers use it: absolute, links resolved (a watch
// does not follow a link), no trailing separator.
std::filesystem::path watch_root(const std::filesystem::path& root);

// The state folder of `options` relative to `root` ("" when it lies outside).
std::string relative_state_dir(const std::filesystem::path& root, const WatchOptions& options);

} // namespace engram::watch
