// How dedupe merges the older file of a duplicate pair into the newer: each
// claim absorbed, recorded as a duplicate or kept in a superseded marker;
// loose comments kept; tags, `related` and salience merged; links to the
// older file redirected. Part of the dedupe rule (dedupe.hpp).
#include "dedupe.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace engram::dedupe {
namespace {

int salience_rank(const std::optional<std::string>& salience) {
  return salience == "high" ? 3 : salience == "low" ? 1 : 2;
}

} // namespace

void DedupeRule::merge(StoreView& store, const Doc& older, const Doc& newer, double score) {
  const auto& from = older.path;
  const auto& into = newer.path;
  const auto old_body = store.body(from);
  const auto claims = store.claims(old_body);
  std::string body = store.body(into);
  std::vector<std::string> carried; // the comments that went with a claim
  const Tally tally = merge_claims(store, from, into, old_body, claims, body, carried);
  keep_loose_comments(store, from, into, old_body, carried, body);
  if (body != store.body(into)) {
    store.set_body(into, body);
  }
  merge_frontmatter(store, from, into);
  if (!store.list(into, "related").empty() &&
      std::find(m_linking.begin(), m_linking.end(), into) == m_linking.end()) {
    m_linking.push_back(into);
  }
  redirect_related(store, from, into);
  mend_index_link(store, from, into);
  store.remove(from);
  store.record(Action{"", "merged", "", from, into,
                      percent(score) + " of significant words shared; " +
                          std::to_string(claims.size()) + " claims accounted for (" +
                          std::to_string(tally.absorbed) + " absorbed, " +
                          std::to_string(tally.duplicates) + " duplicate, " +
                          std::to_string(tally.superseded) + " superseded)"});
}

Tally DedupeRule::merge_claims(StoreView& store, const std::string& from, const std::string& into,
                               const std::string& old_body,
                               const std::vector<engram::Claim>& claims, std::string& body,
                               std::vector<std::string>& carried) {
  // The target's own claims (what an older claim can be updated by), and
  // every claim it holds as it grows, each kept in step with its markers.
  std::vector<std::string> present;
  for (const auto& claim : store.claims(body)) {
    present.push_back(claim.text);
  }
  const std::size_t own_claims = present.size();
  Tally tally;
  for (const auto& claim : claims) {
    const auto unit = knowledge::split_markers(claim.text);
    for (auto& comment : knowledge::comments_of(claim.text)) {
      carried.push_back(std::move(comment));
    }
    const Match match = match_of(store, unit.own, present, own_claims);
    const auto history = unit.markers.empty()
                             ? std::string()
                             : ", with its " + std::to_string(unit.markers.size()) +
                                   " superseded marker" + (unit.markers.size() == 1 ? "" : "s");
    if (match.duplicate) {
      const auto existing =
          knowledge::one_line(knowledge::split_markers(present[*match.duplicate]).own);
      body = knowledge::with_markers_beside(body, present[*match.duplicate], unit.markers);
      store.record(Action{"", "duplicate", unit.own, from, into,
                          "already there as \"" + existing + "\"" +
                              (history.empty() ? "" : "; kept beside it" + history)});
      ++tally.duplicates;
      continue;
    }
    if (match.update) {
      // The newer file's claim stands; the older one is kept beside it.
      const auto standing =
          knowledge::one_line(knowledge::split_markers(present[*match.update]).own);
      std::vector<std::string> markers{knowledge::superseded_marker(store.today(), unit.own)};
      markers.insert(markers.end(), unit.markers.begin(), unit.markers.end());
      body = knowledge::with_markers_beside(body, present[*match.update], markers);
      store.record(Action{"", "superseded", unit.own, from, into,
                          "updated by the newer \"" + standing + "\", kept in a superseded marker" +
                              history});
      ++tally.superseded;
      continue;
    }
    body = placed(body, old_body, claim, unit);
    present.push_back(knowledge::entry_with_markers(unit));
    store.record(
        Action{"", "absorbed", unit.own, from, into, "merged from a duplicate file" + history});
    ++tally.absorbed;
  }
  return tally;
}

Match DedupeRule::match_of(const StoreView& store, const std::string& own,
                           const std::vector<std::string>& present, std::size_t own_claims) {
  Match match;
  for (std::size_t i = 0; i < present.size(); ++i) {
    const auto relation = store.compare(own, present[i]);
    if (relation == Relation::duplicate) {
      match.duplicate = i;
      break;
    }
    if (relation == Relation::update && !match.update && i < own_claims) {
      match.update = i;
    }
  }
  return match;
}

void DedupeRule::keep_loose_comments(StoreView& store, const std::string& from,
                                     const std::string& into, const std::string& old_body,
                                     std::vector<std::string>& carried, std::string& body) {
  std::vector<std::string> loose;
  for (auto& comment : knowledge::comments_of(old_body)) {
    const auto it = std::find(carried.begin(), carried.end(), comment);
    if (it != carried.end()) {
      carried.erase(it);
    } else if (body.find(comment) == std::string::npos &&
               std::find(loose.begin(), loose.end(), comment) == loose.end()) {
      loose.push_back(std::move(comment));
    }
  }
  if (!loose.empty()) {
    std::string block;
    for (const auto& comment : loose) {
      block += (block.empty() ? "" : "\n") + comment;
    }
    body = knowledge::appended(body, block, true);
    store.record(Action{"", "kept", "", from, into,
                        std::to_string(loose.size()) + " comment" + (loose.size() == 1 ? "" : "s") +
                            " outside any claim kept at the end"});
  }
}

std::string DedupeRule::placed(const std::string& body, const std::string& old_body,
                               const engram::Claim& claim, const knowledge::MarkedClaim& unit) {
  const auto entry = knowledge::entry_with_markers(unit);
  const bool paragraph = unit.own.find('\n') != std::string::npos;
  if (!claim.context.empty()) {
    const auto sep = claim.context.rfind(" > ");
    const auto title = sep == std::string::npos ? claim.context : claim.context.substr(sep + 3);
    if (const auto section = knowledge::find_section(body, title)) {
      return knowledge::insert_in_section(body, *section, entry);
    }
    if (knowledge::find_section(old_body, title)) {
      return knowledge::appended(body, "## " + title + "\n\n" + entry, true);
    }
  }
  return knowledge::appended(body, entry, paragraph);
}

void DedupeRule::merge_frontmatter(StoreView& store, const std::string& from,
                                   const std::string& into) {
  const auto union_of = [&](std::string_view key, bool canonical) {
    auto values = store.list(into, key);
    std::set<std::string> seen;
    for (const auto& value : values) {
      seen.insert(canonical ? store.canonical_tag(value) : value);
    }
    bool grew = false;
    for (const auto& value : store.list(from, key)) {
      if (seen.insert(canonical ? store.canonical_tag(value) : value).second) {
        values.push_back(value);
        grew = true;
      }
    }
    return grew ? std::optional(values) : std::nullopt;
  };
  if (const auto tags = union_of("tags", true)) {
    store.set_list(into, "tags", *tags);
  }
  if (auto related = union_of("related", false)) {
    // Neither file points at itself, nor at the file that is going.
    std::erase_if(*related,
                  [&](const std::string& link) { return names(from, link) || names(into, link); });
    store.set_list(into, "related", *related);
  }
  const auto old_salience = store.field(from, "salience");
  const auto new_salience = store.field(into, "salience");
  if (old_salience && salience_rank(old_salience) > salience_rank(new_salience)) {
    store.set_field(into, "salience", *old_salience);
  }
}

bool DedupeRule::held(const StoreView& store, const std::string& path) const {
  if (store.held(path)) {
    return true;
  }
  return std::any_of(m_linking.begin(), m_linking.end(), [&](const std::string& linking) {
    if (!store.held(linking)) {
      return false;
    }
    const auto related = store.list(linking, "related");
    return std::any_of(related.begin(), related.end(),
                       [&](const std::string& link) { return names(path, link); });
  });
}

bool DedupeRule::names(const std::string& path, const std::string& link) {
  const auto name = path.substr(path.rfind('/') + 1);
  const auto stem =
      name.size() > 3 && name.ends_with(".md") ? name.substr(0, name.size() - 3) : name;
  return link == path || link == name || link == stem;
}

void DedupeRule::redirect_related(StoreView& store, const std::string& from,
                                  const std::string& into) {
  for (const auto& path : m_linking) {
    if (path == from || !store.exists(path)) {
      continue;
    }
    auto related = store.list(path, "related");
    bool changed = false;
    for (auto& link : related) {
      if (names(from, link)) {
        const auto name = into.substr(into.rfind('/') + 1);
        link = link == from ? into : link.ends_with(".md") ? name : name.substr(0, name.size() - 3);
        changed = true;
      }
    }
    if (changed) {
      std::vector<std::string> unique;
      for (const auto& link : related) {
        if (std::find(unique.begin(), unique.end(), link) == unique.end() && !names(path, link)) {
          unique.push_back(link);
        }
      }
      store.set_list(path, "related", unique);
    }
  }
}

void DedupeRule::mend_index_link(StoreView& store, const std::string& from,
                                 const std::string& into) {
  const auto index = store.layer_path(Layer::index);
  if (!store.exists(index) || engram::text::is_generated(store.read(index))) {
    return;
  }
  const std::string link = "](" + from + ")";
  for (auto at = store.body(index).find(link); at != std::string::npos;
       at = store.body(index).find(link, at + 1)) {
    store.replace_in_body(index, at + 2, from.size(), into);
    store.record(
        Action{"", "mended", "", index, into, "its link to " + from + ", merged into " + into});
  }
}

} // namespace engram::dedupe
