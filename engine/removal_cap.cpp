// Removal cap: counted from the plan, before anything is written.
#include "engine/removal_cap.hpp"

#include "base/error.hpp"

#include <fmt/format.h>

namespace engram::engine {

void check_removal_cap(const std::filesystem::path& root, const Plan& plan,
                       std::size_t memory_files, const config::Settings& settings) {
  const auto cap = settings.get_int("guard.max_removals_per_run");
  if (cap == 0) {
    return;
  }
  std::vector<const std::string*> removed;
  for (const auto& change : plan.changes) {
    if (!change.new_bytes) {
      removed.push_back(&change.path);
    }
  }
  const double share = settings.get_real("guard.max_removals_share");
  const auto n = removed.size();
  if (n <= static_cast<std::size_t>(cap) ||
      static_cast<double>(n) <= share * static_cast<double>(memory_files)) {
    return;
  }
  constexpr std::size_t k_named = 10;
  std::string named;
  for (std::size_t i = 0; i < n && i < k_named; ++i) {
    named += "\n  " + *removed[i];
  }
  if (n > k_named) {
    named += fmt::format("\n  … and {} more (`engram consolidate --dry-run` lists them all)",
                         n - k_named);
  }
  throw Error("{}: this consolidation would remove {} of {} memory files, more than "
              "guard.max_removals_per_run ({}) and guard.max_removals_share ({:.0f}%) allow; "
              "nothing was committed. It would remove:{}\nIf that is meant (a first run over a "
              "large backlog), run `engram consolidate --allow-removals --store {}`.",
              root.string(), n, memory_files, cap, share * 100, named, root.string());
}

} // namespace engram::engine
