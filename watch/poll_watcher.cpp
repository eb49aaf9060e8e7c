// The polling backend: the whole stat walk, each time it is asked.
#include "watch/poll_watcher.hpp"

#include "base/error.hpp"

namespace engram::watch {

namespace {

// The store's watch root, once it is known to be a folder that can be polled.
std::filesystem::path pollable_root(const std::filesystem::path& root,
                                    const WatchOptions& options) {
  std::filesystem::path watched = watch_root(root);
  std::error_code error;
  if (!std::filesystem::is_directory(watched, error)) {
    throw Error("cannot watch {}: not a folder", watched.string());
  }
  if (options.poll_interval_ms <= 0) {
    throw Error("cannot poll {}: the interval must be positive, not {} ms", watched.string(),
                options.poll_interval_ms);
  }
  return watched;
}

} // namespace

PollWatcher::PollWatcher(const std::filesystem::path& root, const WatchOptions& options)
    : m_interval(options.poll_interval_ms),
      m_index(pollable_root(root, options), relative_state_dir(watch_root(root), options)) {}

void PollWatcher::read_changes(std::vector<Change>& out) { m_index.refresh_all(out); }

} // namespace engram::watch
