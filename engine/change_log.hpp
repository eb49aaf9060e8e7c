// Change log: which paths of a store's model changed since a point of it,
// for the rules that keep what they derived between runs and redo only what
// changed (StoreView::revision, StoreView::changed_since).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::engine {

// The paths noted as changed, in order, under revisions that are unique in
// the process: each new log starts a lineage of its own, so a revision from
// another model (a run that read the whole store again) is not mistaken for
// one of this.
class ChangeLog {
public:
  ChangeLog();

  // Notes that the file at `path` changed, came or went.
  void note(std::string_view path);

  // Names the log as it is now.
  std::uint64_t revision() const;

  // Every path noted since `revision` (once each, in no particular order);
  // nullopt when the revision is not this lineage's, or so old that the log
  // no longer holds what followed it.
  std::optional<std::vector<std::string>> since(std::uint64_t revision) const;

private:
  std::uint64_t count() const { return m_dropped + m_paths.size(); }

  std::uint64_t m_lineage;
  std::uint64_t m_dropped = 0; // paths dropped from the front, to bound the log
  std::deque<std::string> m_paths;
  mutable std::uint64_t m_named = 0; // count() when revision() last named the log
};

} // namespace engram::engine
