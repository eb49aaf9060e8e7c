// Expiry: the decay date of an episodic memory. A date that cannot be read
// means "never": a file is only ever removed on a date engram understood.
#include "store/expiry.hpp"

namespace engram::store {

std::optional<Date> decay_date(const Entry& entry, int default_retention_days) {
  return decay_date(entry.relative, *entry.file, default_retention_days);
}

std::optional<Date> decay_date(const std::filesystem::path& relative, const MemoryFile& file,
                               int default_retention_days) {
  if (file.frontmatter() && file.frontmatter()->has("decay-after") &&
      !file.frontmatter()->is_null("decay-after")) {
    return file.date("decay-after"); // nullopt when unparseable: diagnosed at scan, never decays
  }
  if (file.frontmatter() && file.frontmatter()->has("created") &&
      !file.frontmatter()->is_null("created")) {
    const auto created = file.date("created");
    if (!created) {
      return std::nullopt;
    }
    return created->plus_days(default_retention_days);
  }
  // Episodic files are named YYYY-MM-DD-<slug>.md; the name's date is the creation date.
  const auto name = relative.filename().string();
  if (name.size() >= 10) {
    if (const auto created = Date::parse(std::string_view(name).substr(0, 10))) {
      return created->plus_days(default_retention_days);
    }
  }
  return std::nullopt;
}

bool is_expired(const Entry& entry, const Date& today, int default_retention_days) {
  const auto when = decay_date(entry, default_retention_days);
  return when && *when < today;
}

} // namespace engram::store
