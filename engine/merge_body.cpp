// Merge body: ours' body edited as the decisions say (engine/merge_body.hpp).
#include "engine/merge_body.hpp"

#include "engine/merge_place.hpp"

#include <algorithm>
#include <engram/markers.hpp>
#include <engram/section_edits.hpp>
#include <engram/text.hpp>
#include <fmt/format.h>

namespace engram::engine::merge {
namespace {

// An edit of ours' body: `count` bytes at `at` become `text`; `lines` when it
// removes whole lines, after which blank lines it joined become one.
struct Edit {
  std::size_t at = 0;
  std::size_t count = 0;
  std::string text;
  bool lines = false;
};

// The markers that follow an entry: continuation lines of a list item, else
// lines of their own right after it.
std::string entry_text(const std::string& own, const std::vector<std::string>& markers) {
  const auto entry = engram::markers::as_entry(own);
  return entry + engram::markers::markers_after(entry, markers);
}

// The edit that removes `unit` from `body`: its whole lines when nothing else
// stands on them, else its text and the spaces that parted it from the rest.
Edit removal(std::string_view body, const Unit& unit) {
  const auto end = unit.at + unit.size;
  const auto first = body.rfind('\n', unit.at == 0 ? 0 : unit.at - 1);
  const std::size_t begin = unit.at == 0 || first == std::string_view::npos ? 0 : first + 1;
  const auto newline = body.find('\n', end);
  const std::size_t line_end = newline == std::string_view::npos ? body.size() : newline;
  const auto before = body.substr(begin, unit.at - begin);
  const bool alone = before.find_first_not_of(" \t>") == std::string_view::npos &&
                     text::is_blank(body.substr(end, line_end - end));
  if (alone) {
    const auto next = newline == std::string_view::npos ? body.size() : newline + 1;
    return Edit{begin, next - begin, "", true};
  }
  std::size_t from = unit.at;
  std::size_t to = end;
  while (to < line_end && (body[to] == ' ' || body[to] == '\t')) {
    ++to;
  }
  if (to == line_end) {
    to = end;
    while (from > begin && (body[from - 1] == ' ' || body[from - 1] == '\t')) {
      --from;
    }
  }
  return Edit{from, to - from, ""};
}

// After a removal at `at`: the line it left blank goes (when it removed part
// of a line), and blank lines it joined become one. Returns the first byte
// it changed (`at` when none).
std::size_t tidy(std::string& body, std::size_t at, bool whole_lines) {
  if (!whole_lines) {
    const auto newline = body.find('\n', at);
    const auto previous = at == 0 ? std::string::npos : body.rfind('\n', at - 1);
    const std::size_t begin = previous == std::string::npos ? 0 : previous + 1;
    const std::size_t end = newline == std::string::npos ? body.size() : newline;
    if (!text::is_blank(std::string_view(body).substr(begin, end - begin))) {
      return at;
    }
    body.erase(begin, end - begin + (newline == std::string::npos ? 0 : 1));
    at = begin;
  }
  const bool blank_before =
      (at >= 2 && body[at - 1] == '\n' && body[at - 2] == '\n') || (at == 1 && body[0] == '\n');
  if (blank_before && (at == body.size() || body[at] == '\n')) {
    at -= at == body.size() ? 1 : 0;
    body.erase(at, 1);
  }
  return at;
}

// `body` with `edits` made, from the last to the first. Removals that
// overlap remove both ranges; any other edit that would overlap one made
// already is left out (a marker it adds is added at the end later, a claim
// it removes stays).
std::string applied(std::string body, std::vector<Edit> edits) {
  // Of two insertions at one place, the later one goes in first, so that the
  // earlier one ends up first.
  std::reverse(edits.begin(), edits.end());
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return a.at != b.at ? a.at > b.at : a.count > b.count;
  });
  std::size_t limit = body.size(); // no edit may reach past the start of those made
  for (auto& edit : edits) {
    if (edit.at + edit.count > limit) {
      if (!edit.text.empty() || edit.at >= limit) {
        continue;
      }
      edit.count = limit - edit.at;
    }
    body.replace(edit.at, edit.count, edit.text);
    limit = edit.text.empty() ? tidy(body, edit.at, edit.lines) : edit.at;
  }
  return body;
}

// Writes the merged body.
class BodyWriter {
public:
  BodyWriter(std::string_view ours, std::string_view theirs, const Decisions& decisions,
             const Roles& roles, std::vector<Action>& actions)
      : m_ours(ours), m_theirs(theirs), m_decisions(decisions), m_roles(roles), m_actions(actions),
        m_placed(decisions.entities.size(), false) {}

  // The merged body: ours edited, theirs' claims added, no marker missing.
  std::string run() {
    std::string body = applied(std::string(m_ours), edits_of_ours());
    body = with_theirs(std::move(body));
    return with_missing_markers(std::move(body));
  }

private:
  // The edits of ours' own claims: removals, replacements, markers beside.
  std::vector<Edit> edits_of_ours() {
    std::vector<Edit> edits;
    const auto& units = m_decisions.sides[ours]->units;
    for (std::size_t i = 0; i < units.size(); ++i) {
      if (units[i].at != std::string_view::npos &&
          m_decisions.entities[m_decisions.entity_of[ours][i]].fate != Fate::live) {
        m_leaving.emplace_back(units[i].at, units[i].at + units[i].size);
      }
    }
    for (std::size_t i = 0; i < units.size(); ++i) {
      const auto& unit = units[i];
      const auto& entity = m_decisions.entities[m_decisions.entity_of[ours][i]];
      const bool first = entity.units[ours].front() == i;
      if (unit.at == std::string_view::npos) {
        continue; // not found in the body, so left as it is
      }
      if (entity.fate == Fate::live) {
        const auto fresh = first ? fresh_markers(entity) : std::vector<std::string>{};
        if (!fresh.empty()) {
          edits.push_back(markers_beside(unit, fresh));
        }
        continue;
      }
      if (first && entity.fate == Fate::removed) {
        m_actions.push_back(Action{"sync", "removed", unit.own, m_roles.names[theirs], m_roles.path,
                                   fmt::format("{} removed or replaced it, {} left it as it was",
                                               m_roles.names[theirs], m_roles.names[ours])});
      }
      const auto* replacement = first ? replacement_for(entity) : nullptr;
      if (replacement != nullptr && fits(unit.own, m_decisions.own(*replacement))) {
        in_place(unit, *replacement, edits);
      } else {
        edits.push_back(removal(m_ours, unit));
      }
    }
    return edits;
  }

  // The claim of theirs alone that takes the place of a claim ours loses, if any.
  const Entity* replacement_for(const Entity& entity) const {
    if (entity.into >= m_decisions.entities.size()) {
      return nullptr;
    }
    const auto& end = entity.fate == Fate::removed ? m_decisions.entities[entity.into]
                                                   : m_decisions.live_end(entity);
    const auto index = static_cast<std::size_t>(&end - m_decisions.entities.data());
    const bool free = end.fate == Fate::live && !end.on(ours) && !m_placed[index];
    return free ? &end : nullptr;
  }

  // True when a claim `by` can take the place of `claim` as it stands: a list
  // item in a list, or a one-line sentence in a paragraph.
  static bool fits(const std::string& claim, const std::string& by) {
    const bool item = text::starts_list_item(claim);
    const auto one_sentence = [](const std::string& text) {
      return text.find('\n') == std::string::npos && !text::is_heading(text);
    };
    return item ? text::starts_list_item(markers::as_entry(by))
                : !text::starts_list_item(by) && one_sentence(claim) && one_sentence(by);
  }

  // The edits that put a claim of theirs in place of `unit`; its markers go
  // after it (a list item) or after the paragraph (a sentence).
  void in_place(const Unit& unit, const Entity& entity, std::vector<Edit>& edits) {
    const auto& own = take(entity, unit.own);
    const auto fresh = fresh_markers(entity);
    if (text::starts_list_item(unit.own)) {
      edits.push_back(Edit{unit.at, unit.size, entry_text(own, fresh)});
      return;
    }
    edits.push_back(Edit{unit.at, unit.size, own});
    if (!fresh.empty()) {
      edits.push_back(markers_beside(unit, fresh));
    }
  }

  // Takes a claim of theirs into the body, recorded as merged (in place of
  // `replaced`, when it takes a claim's place); returns its text.
  const std::string& take(const Entity& entity, const std::string& replaced = {}) {
    m_placed[static_cast<std::size_t>(&entity - m_decisions.entities.data())] = true;
    const auto& own = m_decisions.own(entity);
    m_actions.push_back(Action{"sync", "merged", own, m_roles.names[theirs], m_roles.path,
                               replaced.empty()
                                   ? fmt::format("added on {}", m_roles.names[theirs])
                                   : fmt::format("added on {}, in place of \"{}\"",
                                                 m_roles.names[theirs], text::one_line(replaced))});
    return own;
  }

  // True when ours holds `marker` outside the claims it loses.
  bool stays(const std::string& marker) const {
    for (auto at = m_ours.find(marker); at != std::string_view::npos;
         at = m_ours.find(marker, at + 1)) {
      if (std::none_of(m_leaving.begin(), m_leaving.end(),
                       [&](const auto& range) { return range.first <= at && at < range.second; })) {
        return true;
      }
    }
    return false;
  }

  // The entity's markers that the body will not hold otherwise; they are written now.
  std::vector<std::string> fresh_markers(const Entity& entity) {
    std::vector<std::string> fresh;
    for (auto& marker : entity.all_markers()) {
      if (!stays(marker) &&
          std::find(m_written.begin(), m_written.end(), marker) == m_written.end()) {
        m_written.push_back(marker);
        fresh.push_back(std::move(marker));
      }
    }
    return fresh;
  }

  // The edit that puts `markers` beside a claim of ours: continuation lines
  // of a list item, else a block after its paragraph.
  Edit markers_beside(const Unit& unit, const std::vector<std::string>& markers) const {
    const auto end = unit.at + unit.size;
    if (text::starts_list_item(unit.own)) {
      return Edit{end, 0, markers::markers_after(unit.own, markers)};
    }
    std::string block;
    for (const auto& marker : markers) {
      block += marker + "\n";
    }
    const auto blank = m_ours.find("\n\n", end);
    if (blank == std::string_view::npos) {
      return Edit{m_ours.size(), 0, sections::appendix(std::string(m_ours), block, true)};
    }
    return Edit{blank + 1, 0, "\n" + block};
  }

  // `body` with theirs' live claims that ours lacks, each under its headings.
  std::string with_theirs(std::string body) {
    const auto& units = m_decisions.sides[theirs]->units;
    for (std::size_t i = 0; i < units.size(); ++i) {
      const auto index = m_decisions.entity_of[theirs][i];
      const auto& entity = m_decisions.entities[index];
      if (entity.units[theirs].front() != i || entity.fate != Fate::live || entity.on(ours) ||
          m_placed[index]) {
        continue;
      }
      const auto at = units[i].at == std::string_view::npos ? m_theirs.size() : units[i].at;
      const auto& own = take(entity);
      body = with_entry(std::move(body), entry_text(own, fresh_markers(entity)),
                        headings_at(m_theirs, at));
    }
    return body;
  }

  // `body` with every marker a live claim carries that it lacks, and theirs'
  // markers that stand without a claim, at its end: the last guard of the
  // promise that a merge keeps every marker.
  std::string with_missing_markers(std::string body) const {
    std::vector<std::string> missing;
    for (const auto& entity : m_decisions.entities) {
      if (entity.fate == Fate::live) {
        add_unique(missing, entity.all_markers());
      }
    }
    add_unique(missing, m_decisions.sides[theirs]->loose);
    std::string block;
    for (const auto& marker : missing) {
      if (body.find(marker) == std::string::npos) {
        block += marker + "\n";
      }
    }
    return block.empty() ? body : sections::appended(std::move(body), block, true);
  }

  std::string_view m_ours;
  std::string_view m_theirs;
  const Decisions& m_decisions;
  const Roles& m_roles;
  std::vector<Action>& m_actions;
  std::vector<bool> m_placed;         // each entity: taken into the body already
  std::vector<std::string> m_written; // markers written so far
  std::vector<std::pair<std::size_t, std::size_t>> m_leaving; // ours' claims that go: [from, to)
};

} // namespace

std::string merged_body(std::string_view ours, std::string_view theirs, const Decisions& decisions,
                        const Roles& roles, std::vector<Action>& actions) {
  return BodyWriter(ours, theirs, decisions, roles, actions).run();
}

} // namespace engram::engine::merge
