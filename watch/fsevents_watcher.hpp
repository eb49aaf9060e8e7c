// The macOS backend: an FSEvents stream over the store, compiled only where
// Apple's CoreServices exists (cmake/Platform.cmake). FSEvents says which
// paths were touched, not reliably how, so each touched path is looked at on
// disk through the stamp index; lost events make it walk the whole store.
#pragma once

#include "watch/stamps.hpp"
#include "watch/watcher.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace engram::watch {

// A watcher fed by an FSEvents stream on its own dispatch queue.
class FseventsWatcher final : public Watcher {
public:
  // Starts the stream on `root`. Throws engram::Error when it cannot start.
  FseventsWatcher(const std::filesystem::path& root, const WatchOptions& options);
  ~FseventsWatcher() override;
  FseventsWatcher(const FseventsWatcher&) = delete;
  FseventsWatcher& operator=(const FseventsWatcher&) = delete;

  // "fsevents".
  std::string_view name() const override { return "fsevents"; }

  // The read end of a pipe the stream's callback writes a byte to.
  int fd() const override { return m_wake[0]; }

  // Negative: the descriptor says when to ask.
  std::chrono::milliseconds poll_interval() const override {
    return std::chrono::milliseconds(-1);
  }

  // Looks at every path touched since the last call and reports what differs.
  void read_changes(std::vector<Change>& out) override;

  // Called on the stream's queue with what FSEvents delivered: absolute paths
  // and, per path, whether events were lost under it.
  void deliver(std::vector<std::string> absolute, bool lost);

private:
  struct Stream; // the CoreServices objects, kept out of this header

  std::filesystem::path m_root;     // the store's folder, as FSEvents names it
  StampIndex m_index;               // what the store's files looked like last time
  int m_wake[2] = {-1, -1};         // readable while touched paths wait
  std::mutex m_mutex;               // guards the two below (the queue's thread writes them)
  std::vector<std::string> m_touched; // store-relative, since the last read_changes
  bool m_lost = false;              // events were dropped: walk everything
  std::unique_ptr<Stream> m_stream; // last: stopped first when this goes
};

} // namespace engram::watch
