// Expiry: when an episodic memory decays, from `decay-after`, else `created`
// (frontmatter or file-name date) plus the default retention.
#pragma once

#include "engram/date.hpp"
#include "store/scan.hpp"

#include <optional>

namespace engram::store {

// The day after which an episodic entry has decayed; nullopt means never
// (no usable date at all, or an unparseable one: diagnosed, never guessed).
std::optional<Date> decay_date(const Entry& entry, int default_retention_days);

// The same for a file at a store-relative path that is not (or no longer) an Entry.
std::optional<Date> decay_date(const std::filesystem::path& relative, const MemoryFile& file,
                               int default_retention_days);

// True when the entry's decay date is before `today`.
bool is_expired(const Entry& entry, const Date& today, int default_retention_days);

} // namespace engram::store
