// Verdict: whether one memory is forgotten, from its usage and the
// memory-consolidation seed's "Selective Forgetting" criteria — unused for
// longer than `unused_days` and either rarely used (fewer than `min_uses`) or
// ineffective (under `min_helpful` helpful, when it has feedback); never one
// used in the last `recent_days`, never a critical one, never a confirmed one
// unless configured. Pure: the rule reads the store, this decides.
#pragma once

#include "../shared/usage.hpp"

#include <cstdint>
#include <string>

namespace engram::forgetting {

// The configured thresholds (`[rules.forgetting]`).
struct Thresholds {
  std::int64_t unused_days = 90;  // unused: last used more than this many days ago
  std::int64_t min_uses = 3;      // rarely used: fewer uses than this
  double min_helpful = 0.3;       // ineffective: helpful share below this
  std::int64_t recent_days = 30;  // used within this many days: always kept
  bool include_confirmed = false; // whether `status: confirmed` memories may be forgotten
};

// What protects a memory whatever its usage.
struct Protection {
  bool critical = false;  // `critical: true`
  bool confirmed = false; // `status: confirmed`
};

// The decision about one memory.
struct Verdict {
  bool candidate = false;     // its usage says forget it
  bool forget = false;        // a candidate nothing protects: it is archived
  std::string reason;         // why it is a candidate (or why not, when it is not)
  std::string kept_because;   // for a candidate that is kept: what protects it
  std::int64_t idle_days = 0; // days since it was last used
};

// "N time(s)".
inline std::string times(std::int64_t n) {
  return std::to_string(n) + (n == 1 ? " time" : " times");
}

// A share as a whole percentage, "25%".
inline std::string percent(double share) {
  return std::to_string(static_cast<std::int64_t>(share * 100.0 + 0.5)) + "%";
}

// Decides whether a memory with this usage is forgotten today.
inline Verdict decide(const usage::Usage& usage, const Protection& protection, Date today,
                      const Thresholds& t) {
  Verdict verdict;
  const auto last = usage.last_used();
  if (!usage.problem.empty()) {
    verdict.reason = usage.problem;
    return verdict;
  }
  if (!last) {
    verdict.reason = "no `last-accessed` or `created` date: its age is unknown";
    return verdict;
  }
  verdict.idle_days = today.days_since(*last);
  if (verdict.idle_days < t.recent_days) {
    verdict.reason = "used in the last " + std::to_string(t.recent_days) + " days";
    return verdict;
  }
  if (verdict.idle_days <= t.unused_days) {
    verdict.reason = "used in the last " + std::to_string(t.unused_days) + " days";
    return verdict;
  }
  const auto effectiveness = usage.effectiveness();
  const bool rarely = usage.uses < t.min_uses;
  const bool ineffective = effectiveness && *effectiveness < t.min_helpful;
  if (!rarely && !ineffective) {
    verdict.reason = "used " + times(usage.uses) +
                     (effectiveness ? ", " + percent(*effectiveness) + " helpful" : std::string());
    return verdict;
  }
  verdict.candidate = true;
  verdict.reason = "unused for " + std::to_string(verdict.idle_days) + " days (last used " +
                   last->to_string() + ")";
  if (rarely) {
    verdict.reason +=
        ", used " + times(usage.uses) + " (fewer than " + std::to_string(t.min_uses) + ")";
  }
  if (ineffective) {
    verdict.reason += std::string(rarely ? " and" : ",") + " " + percent(*effectiveness) +
                      " helpful (" + std::to_string(usage.helpful) + " helpful, " +
                      std::to_string(usage.unhelpful) + " unhelpful; under " +
                      percent(t.min_helpful) + ")";
  }
  if (protection.critical) {
    verdict.kept_because = "marked critical";
  } else if (protection.confirmed && !t.include_confirmed) {
    verdict.kept_because = "status: confirmed (rules.forgetting.include_confirmed is off)";
  }
  verdict.forget = verdict.kept_because.empty();
  return verdict;
}

} // namespace engram::forgetting
