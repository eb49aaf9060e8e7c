// The polling backend: the stat walk of the whole store compared with the
// previous one. It works everywhere, and it is the tested fallback.
#pragma once

#include "watch/stamps.hpp"
#include "watch/watcher.hpp"

#include <string>

namespace engram::watch {

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
  std::chrono::milliseconds m_interval; // how often the daemon should ask
  StampIndex m_index;                   // the previous walk
};

} // namespace engram::watch
