// Curated memory: a file the agent keeps its lasting knowledge in and loads
// every session (OpenClaw's MEMORY.md), named by the store's profile. Claims
// distilled from the agent's expired notes are appended into its sections,
// each with the date of the note it came from, while the file stays under
// what the agent's loader injects; nothing in it is rewritten. A claim that
// does not fit goes to engram's own layer files instead.
#pragma once

#include "../shared/knowledge.hpp"
#include "engram/rule.hpp"
#include "sections.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace engram::episodic_decay {

// The heading claims go under when none of the file's sections is theirs.
inline constexpr std::string_view k_curated_heading = "From daily notes";

// The curated file of a store and the room left in it.
class Curated {
public:
  // The profile's curated file (`profile.curated`), measured now; none when
  // the profile has none.
  static Curated of(const StoreView& store) {
    Curated curated;
    const auto path = store.setting("profile.curated");
    const auto* name = path ? std::get_if<std::string>(&*path) : nullptr;
    if (name == nullptr || name->empty()) {
      return curated;
    }
    curated.m_path = *name;
    const auto limit = store.setting("profile.curated_chars");
    const auto* chars = limit ? std::get_if<std::int64_t>(&*limit) : nullptr;
    const std::size_t used = store.exists(*name) ? store.read(*name).size() : 0;
    curated.m_room = chars == nullptr || *chars <= 0 ? std::numeric_limits<std::size_t>::max()
                     : static_cast<std::size_t>(*chars) > used
                         ? static_cast<std::size_t>(*chars) - used
                         : 0;
    return curated;
  }

  const std::string& path() const { return m_path; }

  // True when `claim` goes to the curated file: knowledge (not a task or a
  // note about the note), and room for it with its date and a heading.
  bool takes(const Claim& claim) {
    if (m_path.empty() || claim.kind == ClaimKind::task || claim.kind == ClaimKind::metadata) {
      return false;
    }
    const std::size_t needs = claim.text.size() + k_curated_heading.size() + 32;
    if (needs > m_room) {
      return false;
    }
    m_room -= needs;
    return true;
  }

private:
  std::string m_path;
  std::size_t m_room = 0;
};

// The date of the note at `source`: its `created`, else the date its file
// name starts with (OpenClaw names daily notes `YYYY-MM-DD.md`).
inline std::optional<Date> note_date(const StoreView& store, const std::string& source) {
  if (auto created = store.date(source, "created")) {
    return created;
  }
  const auto name = source.substr(source.rfind('/') + 1);
  return name.size() >= 10 ? Date::parse(name.substr(0, 10)) : std::nullopt;
}

// Where in `body` (the curated file `target`'s) the line after its claim
// `match` starts, or npos when that claim is not found.
inline std::size_t after_claim(const StoreView& store, const std::string& target,
                               const std::string& body, const ClaimMatch& match) {
  const auto claims = store.claims_of(target, ClaimDetail::unclassified);
  if (match.index >= claims.size()) {
    return std::string::npos;
  }
  const auto& found = claims[match.index];
  std::string_view text = found.text;
  while (text.ends_with('\n')) {
    text.remove_suffix(1);
  }
  const auto last_line = static_cast<std::size_t>(std::max(found.line, 1)) +
                         static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  std::size_t at = 0;
  for (std::size_t line = 0; line < last_line; ++line) {
    at = body.find('\n', at);
    if (at == std::string::npos) {
      return body.size();
    }
    ++at;
  }
  return at;
}

// Appends `claim` of the note `source` to the curated file `target`: on the
// line after a claim of the file it updates, which stays as the agent wrote
// it (the agent reads the older and the newer, dated, side by side); else
// under the section its note's heading names, else under k_curated_heading.
// A claim the file already states is not added again.
// `also` ends the record's reason (what else the claim is newer than).
inline void absorb_curated(StoreView& store, const Claim& claim, const std::string& source,
                           const std::string& target, const std::string& also = {}) {
  std::optional<ClaimMatch> updated;
  for (const auto& match :
       store.related_claims(claim.text, Layer::index, ClaimDetail::unclassified)) {
    if (match.path == target && match.relation == Relation::duplicate) {
      store.record(Action{"", "duplicate", claim.text, source, target,
                          "already there as \"" + match.text + "\""});
      return;
    }
    if (match.path == target && match.relation == Relation::update && !updated) {
      updated = match;
    }
  }
  if (!store.exists(target)) {
    store.write(target, "# Long-term memory\n");
  }
  const auto day = note_date(store, source);
  std::string text = claim.text;
  if (day) {
    const auto line_end = text.find('\n');
    text.insert(line_end == std::string::npos ? text.size() : line_end,
                " (" + day->to_string() + ")");
  }
  const std::string& body = store.body(target);
  const std::string entry = knowledge::as_entry(text);
  const auto beside = updated ? after_claim(store, target, body, *updated) : std::string::npos;
  if (beside != std::string::npos) {
    const bool newline = beside == 0 || body[beside - 1] == '\n';
    store.replace_in_body(target, beside, 0, (newline ? "" : "\n") + entry + "\n");
    store.record(Action{"", "absorbed", claim.text, source, target,
                        "into the agent's curated memory" +
                            (day ? ", dated " + day->to_string() : std::string()) +
                            ", beside \"" + updated->text +
                            "\", which it updates (the agent's line stays as written)" + also});
    return;
  }
  auto section = matching_section(store, body, claim.context);
  if (!section) {
    section = find_section(body, std::string(k_curated_heading));
  }
  const auto edit =
      section ? section_insertion(body, *section, entry)
              : knowledge::Splice{
                    body.size(), 0,
                    knowledge::appendix(
                        body, "## " + std::string(k_curated_heading) + "\n\n" + entry, true)};
  store.replace_in_body(target, edit.at, edit.count, edit.text);
  store.record(Action{"", "absorbed", claim.text, source, target,
                      "into the agent's curated memory" +
                          (day ? ", dated " + day->to_string() : std::string()) + also});
}

} // namespace engram::episodic_decay
