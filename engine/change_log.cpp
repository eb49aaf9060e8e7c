// Change log: a bounded deque of paths, and revisions that carry their lineage.
#include "engine/change_log.hpp"

#include <atomic>
#include <set>

namespace engram::engine {

namespace {

constexpr int k_count_bits = 40; // a lineage's revisions count up to 2^40 notes
constexpr std::uint64_t k_count_mask = (std::uint64_t{1} << k_count_bits) - 1;
// Past this many paths the older half is dropped: a rule that has not looked
// for that long (or a store rewritten whole) does its full work once.
constexpr std::size_t k_capacity = 16384;

std::uint64_t new_lineage() {
  static std::atomic<std::uint64_t> next{1}; // 0 is no revision at all
  return next.fetch_add(1, std::memory_order_relaxed);
}

} // namespace

ChangeLog::ChangeLog() : m_lineage(new_lineage()) {}

void ChangeLog::note(std::string_view path) {
  // The same path again, with no revision named in between, adds nothing.
  if (!m_paths.empty() && m_paths.back() == path && count() > m_named) {
    return;
  }
  m_paths.emplace_back(path);
  if (m_paths.size() > k_capacity) {
    const std::size_t drop = m_paths.size() / 2;
    m_paths.erase(m_paths.begin(), m_paths.begin() + static_cast<std::ptrdiff_t>(drop));
    m_dropped += drop;
  }
}

std::uint64_t ChangeLog::revision() const {
  m_named = count();
  return (m_lineage << k_count_bits) | (m_named & k_count_mask);
}

std::optional<std::vector<std::string>> ChangeLog::since(std::uint64_t revision) const {
  const std::uint64_t at = revision & k_count_mask;
  if ((revision >> k_count_bits) != m_lineage || at < m_dropped || at > count()) {
    return std::nullopt;
  }
  std::set<std::string_view> paths;
  for (auto it = m_paths.begin() + static_cast<std::ptrdiff_t>(at - m_dropped); it != m_paths.end();
       ++it) {
    paths.insert(*it);
  }
  return std::vector<std::string>(paths.begin(), paths.end());
}

} // namespace engram::engine
