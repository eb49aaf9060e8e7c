// A fake watch::Watcher for unit tests of the daemon: the test pushes changes
// into a feed, and the watcher's eventfd becomes readable as a real backend's
// descriptor would. Header-only, like the other unit-test helpers.
#pragma once

#include "watch/watcher.hpp"

#include <memory>
#include <mutex>
#include <sys/eventfd.h>
#include <unistd.h>
#include <vector>

namespace engram::test {

// Changes waiting to be read by a FakeWatcher, shared with the test.
class FakeFeed {
public:
  FakeFeed() : m_fd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}
  ~FakeFeed() { ::close(m_fd); }
  FakeFeed(const FakeFeed&) = delete;
  FakeFeed& operator=(const FakeFeed&) = delete;

  // Queues a change and makes the descriptor readable.
  void push(const std::filesystem::path& path,
            watch::ChangeKind kind = watch::ChangeKind::changed) {
    const std::lock_guard lock(m_mutex);
    m_changes.push_back({path, kind});
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(m_fd, &one, sizeof one);
  }

  // Takes every queued change and clears the descriptor.
  void take(std::vector<watch::Change>& out) {
    const std::lock_guard lock(m_mutex);
    std::uint64_t count = 0;
    [[maybe_unused]] const auto got = ::read(m_fd, &count, sizeof count);
    out.insert(out.end(), m_changes.begin(), m_changes.end());
    m_changes.clear();
  }

  // The descriptor a watcher reports.
  int fd() const { return m_fd; }

  // How many watchers were made on this feed (one per start or watcher switch).
  int made = 0;

private:
  int m_fd;
  std::mutex m_mutex;
  std::vector<watch::Change> m_changes;
};

// A watcher that reports what its feed was given.
class FakeWatcher final : public watch::Watcher {
public:
  explicit FakeWatcher(std::shared_ptr<FakeFeed> feed) : m_feed(std::move(feed)) {}
  std::string_view name() const override { return "fake"; }
  int fd() const override { return m_feed->fd(); }
  std::chrono::milliseconds poll_interval() const override { return std::chrono::milliseconds(-1); }
  void read_changes(std::vector<watch::Change>& out) override { m_feed->take(out); }

private:
  std::shared_ptr<FakeFeed> m_feed;
};

} // namespace engram::test
