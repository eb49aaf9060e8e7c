// Settling: the deadline is the earlier of "quiet since the last change" and
// "max_wait since the first", so a steady writer cannot postpone it forever.
#include "watch/settle.hpp"

#include <algorithm>

namespace engram::watch {

Settle::Settle(std::chrono::milliseconds quiet, std::chrono::milliseconds max_wait)
    : m_quiet(quiet), m_max_wait(max_wait) {}

void Settle::note(Clock::time_point now, std::size_t count) {
  if (count == 0) {
    return;
  }
  if (!m_first) {
    m_first = now;
  }
  // The clock is steady, but a caller's stale `now` must not pull the deadline back.
  m_last = m_last ? std::max(*m_last, now) : now;
  m_pending += count;
}

std::optional<Clock::time_point> Settle::deadline() const {
  if (m_pending == 0 || !m_first || !m_last) {
    return std::nullopt;
  }
  return std::min(*m_last + m_quiet, *m_first + m_max_wait);
}

bool Settle::ready(Clock::time_point now) const {
  const auto when = deadline();
  return when && now >= *when;
}

std::size_t Settle::take() {
  const std::size_t taken = m_pending;
  m_pending = 0;
  m_first.reset();
  m_last.reset();
  return taken;
}

void Settle::reconfigure(std::chrono::milliseconds quiet, std::chrono::milliseconds max_wait) {
  m_quiet = quiet;
  m_max_wait = max_wait;
}

} // namespace engram::watch
