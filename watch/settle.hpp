// Settle: a trailing quiet period capped by a maximum wait, so a burst of
// writes becomes one consolidation and a busy writer is still consolidated.
// Time is passed in, never read, so tests drive it step by step.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>

namespace engram::watch {

// The clock settling measures with.
using Clock = std::chrono::steady_clock;

// Tracks when a stream of changes has gone quiet.
class Settle {
public:
  // `quiet`: how long without changes counts as settled; `max_wait`: the most
  // a change may wait however busy the writer is.
  Settle(std::chrono::milliseconds quiet, std::chrono::milliseconds max_wait);

  // Notes `count` changes seen at `now` (a count of 0 notes nothing).
  void note(Clock::time_point now, std::size_t count = 1);

  // When the pending changes settle (or must be taken anyway); nullopt when none are pending.
  std::optional<Clock::time_point> deadline() const;

  // True when changes are pending and `now` has reached the deadline.
  bool ready(Clock::time_point now) const;

  // Takes the pending changes (returns how many there were) and starts over.
  std::size_t take();

  // Changes the periods (on configuration reload); pending changes keep their first time.
  void reconfigure(std::chrono::milliseconds quiet, std::chrono::milliseconds max_wait);

  // How many changes are pending (for `engram status`).
  std::size_t pending() const { return m_pending; }

  // The quiet period.
  std::chrono::milliseconds quiet() const { return m_quiet; }

  // The maximum wait.
  std::chrono::milliseconds max_wait() const { return m_max_wait; }

private:
  std::chrono::milliseconds m_quiet;        // settled after this long without a change
  std::chrono::milliseconds m_max_wait;     // ready this long after the first change at the latest
  std::optional<Clock::time_point> m_first; // when the first pending change was noted
  std::optional<Clock::time_point> m_last;  // when the latest pending change was noted
  std::size_t m_pending = 0;                // changes noted since the last take
};

} // namespace engram::watch
