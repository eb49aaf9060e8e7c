// How episodic-decay files a claim in its target: appended under the section
// it belongs in, recorded as a duplicate of what the store already holds, or
// superseding the older claim it updates (kept in a marker); a solution
// amends the solution of the same title; tasks and session lines are kept
// with their episode in archive/. Part of the episodic-decay rule
// (episodic_decay.hpp).
#include "engram/text.hpp"
#include "episodic_decay.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::episodic_decay {
namespace {

// A one-line list item's words without their marker, to stand where a line
// of a paragraph stood (a Claude Code feedback file leads with its rule as
// a paragraph). An item of several lines stays one.
std::string as_paragraph_line(const std::string& claim) {
  if (!is_item(claim) || claim.find('\n') != std::string::npos) {
    return claim;
  }
  const auto marker_end = claim.find_first_of(" \t");
  return claim.substr(claim.find_first_not_of(" \t", marker_end));
}

// `heading` without a leading time of day ("09:12 - Backups" → "Backups"):
// daily notes head their entries with the time they were written, which
// names no subject.
std::string without_time(std::string heading) {
  std::size_t at = 0;
  const auto number = [&](std::size_t most) { // up to `most` digits at `at`; how many
    std::size_t n = 0;
    while (n < most && at < heading.size() &&
           std::isdigit(static_cast<unsigned char>(heading[at]))) {
      ++at;
      ++n;
    }
    return n;
  };
  const auto colon_and_two = [&] {
    if (at < heading.size() && heading[at] == ':') {
      ++at;
      return number(2) == 2;
    }
    return false;
  };
  if (number(2) == 0 || !colon_and_two()) {
    return heading;
  }
  const std::size_t minutes_end = at;
  if (!colon_and_two()) {
    at = minutes_end; // no seconds
  }
  const auto rest = heading.find_first_not_of(" -\t|:", at);
  if (rest == at || rest == std::string::npos) {
    return heading; // "09:12" alone, or "09:120": not a time before a title
  }
  return heading.substr(rest);
}

// The `## Title` a behavioural claim is filed under: its nearest heading, else its first words.
std::string title_for(const Claim& claim) {
  if (!claim.context.empty()) {
    const auto sep = claim.context.rfind(" > ");
    return without_time(sep == std::string::npos ? claim.context : claim.context.substr(sep + 3));
  }
  std::string text = one_line(claim.text);
  if (is_item(text)) {
    text = text.substr(text.find(' ') + 1);
  }
  std::string title;
  int words = 0;
  for (std::size_t i = 0; i < text.size() && words < 8; ++i) {
    if (text[i] == ' ') {
      ++words;
      if (words == 8) {
        break;
      }
    }
    title += text[i];
  }
  while (!title.empty() &&
         std::string_view(".,;:!?").find(title.back()) != std::string_view::npos) {
    title.pop_back();
  }
  return title.empty() ? "Feedback" : title;
}

} // namespace

void EpisodicDecayRule::absorb(StoreView& store, const Claim& claim, const std::string& source,
                               const std::string& target, const std::vector<std::string>& tags,
                               const std::vector<std::string>& canon) {
  std::optional<std::string> uncertain; // a claim of the target this one may update
  if (claim.kind == ClaimKind::solution ? solution_held(store, claim, source, target)
                                        : claim_held(store, claim, source, target, uncertain)) {
    return;
  }
  // Its own layer holds it nowhere: the other layer may (targets.cpp).
  std::optional<std::string> elsewhere;
  if (const auto across = across_layers(store, claim, source, tags, canon);
      across && claim_held(store, claim, source, *across, elsewhere)) {
    return;
  }
  if (!store.exists(target)) {
    create(store, target, layer_for(claim.kind), tags, source);
  }
  // Read in place, and edited in place: the target can be long.
  const std::string& body = store.body(target);
  std::string added; // what the claim adds to the target, for m_headings
  const auto edit = claim.kind == ClaimKind::solution
                        ? solution_edit(store, claim, source, target, body, added)
                        : claim_edit(store, claim, target, body, added);
  if (!edit) {
    return;
  }
  if (uncertain) {
    store.record(Action{"", "flagged", claim.text, source, target,
                        "kept beside \"" + one_line(*uncertain) +
                            "\": either may be what holds now; both kept, for a person to "
                            "judge which"});
  }
  store.replace_in_body(target, edit->at, edit->count, edit->text);
  m_headings.wrote(store, target, added);
  store.record(Action{"", "absorbed", claim.text, source, target, kind_name(claim.kind)});
}

bool EpisodicDecayRule::solution_held(StoreView& store, const Claim& claim,
                                      const std::string& source, const std::string& target) {
  for (const auto& match : store.duplicate_claims(claim.text, Layer::procedural, k_kinds)) {
    if (match.path == target && match.kind != ClaimKind::solution &&
        match.relation == Relation::duplicate) {
      store.record(Action{"", "duplicate", claim.text, source, target,
                          "already there as \"" + one_line(match.text) + "\""});
      return true;
    }
  }
  return false;
}

bool EpisodicDecayRule::claim_held(StoreView& store, const Claim& claim, const std::string& source,
                                   const std::string& target,
                                   std::optional<std::string>& uncertain) {
  // The target's layer: a claim may be filed beside one of the other kind (targets.cpp).
  const Layer layer = store.layer_of(target).value_or(layer_for(claim.kind));
  const auto related = store.related_claims(claim.text, layer, k_kinds);
  const engram::ClaimMatch* update = nullptr;
  for (const auto& match : related) {
    if (match.path != target) {
      continue;
    }
    if (match.relation == Relation::uncertain && !uncertain) {
      uncertain = match.text;
    }
    if (match.relation == Relation::duplicate) {
      store.record(Action{"", "duplicate", claim.text, source, target,
                          "already there as \"" + one_line(match.text) + "\""});
      return true;
    }
    if (match.relation == Relation::update && update == nullptr) {
      update = &match;
    }
  }
  if (update != nullptr) {
    supersede(store, claim, update->text, source, target);
    return true;
  }
  for (const auto& match : related) {
    if (match.path != target && match.relation == Relation::duplicate) {
      store.record(Action{"", "duplicate", claim.text, source, match.path,
                          "already there as \"" + one_line(match.text) + "\""});
      return true;
    }
  }
  return false;
}

std::optional<engram::knowledge::Splice>
EpisodicDecayRule::solution_edit(StoreView& store, const Claim& claim, const std::string& source,
                                 const std::string& target, const std::string& body,
                                 std::string& added) {
  const auto heading = "Solution: " + claim.title;
  const auto section = m_headings.may_have(store, target, body, heading)
                           ? find_section(body, heading)
                           : std::nullopt;
  if (!section) {
    added = claim.text;
    return engram::knowledge::Splice{body.size(), 0, appendix(body, added, true)};
  }
  const auto amended = amend_solution(store, claim, source, target, body, *section);
  if (!amended) {
    store.record(Action{"", "duplicate", claim.text, source, target,
                        "solution '" + claim.title + "' already holds every line"});
    return std::nullopt;
  }
  added = *amended;
  return engram::knowledge::Splice{section->heading, section->end - section->heading, *amended};
}

engram::knowledge::Splice EpisodicDecayRule::claim_edit(const StoreView& store, const Claim& claim,
                                                        const std::string& target,
                                                        const std::string& body,
                                                        std::string& added) {
  if (claim.kind == ClaimKind::behavioural) {
    const auto title = title_for(claim);
    const auto section =
        m_headings.may_have(store, target, body, title) ? find_section(body, title) : std::nullopt;
    added = section ? as_entry(claim.text) : "## " + title + "\n\n" + as_entry(claim.text);
    return section ? section_insertion(body, *section, added)
                   : engram::knowledge::Splice{body.size(), 0, appendix(body, added, true)};
  }
  // Filed in the section its episode's heading names ("# Rate limits"
  // into "## Rate limits"), else at the end.
  added = as_entry(claim.text);
  const auto section = engram::episodic_decay::matching_section(store, body, claim.context);
  return section ? section_insertion(body, *section, added)
                 : engram::knowledge::Splice{
                       body.size(), 0,
                       appendix(body, added, claim.text.find('\n') != std::string::npos)};
}

std::string_view EpisodicDecayRule::solution_label(std::string_view line) {
  if (!line.starts_with("**")) {
    return {};
  }
  const auto end = line.find(":**", 2);
  return end == std::string_view::npos ? std::string_view() : line.substr(0, end + 3);
}

std::optional<std::string>
EpisodicDecayRule::amend_solution(StoreView& store, const Claim& claim, const std::string& source,
                                  const std::string& target, const std::string& body,
                                  const engram::knowledge::Section& section) {
  std::string text = body.substr(section.heading, section.end - section.heading);
  std::string missing;
  const auto lines = engram::text::split_lines(claim.text);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto line = std::string(engram::text::without_eol(lines[i]));
    if (engram::text::is_blank(line) || text.find(line) != std::string::npos) {
      continue;
    }
    const auto label = solution_label(line);
    const auto at = label.empty() ? std::string::npos : text.find("\n" + std::string(label));
    if (at == std::string::npos) {
      missing += line + "\n";
      continue;
    }
    const auto start = at + 1;
    const auto end = std::min(text.find('\n', start), text.size());
    const auto old_line = text.substr(start, end - start);
    text.replace(start, end - start,
                 line + "\n" + engram::knowledge::superseded_marker(store.today(), old_line));
    store.record(Action{"", "superseded", line, source, target,
                        "updates \"" + one_line(old_line) + "\" of solution '" + claim.title +
                            "', kept in a superseded marker"});
  }
  if (!missing.empty()) {
    const bool spaced = text.ends_with("\n\n"); // a blank line before the next heading stays
    const auto splice = section_insertion(text, {0, text.size()}, missing);
    text.replace(splice.at, splice.count, splice.text);
    if (spaced && !text.ends_with("\n\n")) {
      text += '\n';
    }
  }
  if (text == body.substr(section.heading, section.end - section.heading)) {
    return std::nullopt;
  }
  return text;
}

std::string EpisodicDecayRule::archive_path(const StoreView& store, const std::string& source) {
  return store.layer_path(Layer::archive) + "/" + source;
}

void EpisodicDecayRule::keep_in_archive(StoreView& store, const Claim& claim,
                                        const std::string& source) {
  const auto target = archive_path(store, source);
  if (!store.exists(target)) {
    const auto created = store.date(source, "created");
    store.write(target, "---\ntype: episodic\nstatus: archived\ncreated: " +
                            (created ? created->to_string() : store.today().to_string()) +
                            "\narchived: " + store.today().to_string() + "\n---\n# Kept from " +
                            source + "\n");
  }
  const std::string& body = store.body(target);
  store.replace_in_body(target, body.size(), 0, appendix(body, as_entry(claim.text), false));
  store.record(Action{"", "archived", claim.text, source, target,
                      claim.kind == ClaimKind::task
                          ? "a task, not lasting knowledge; kept with its episode"
                          : "about the session, not knowledge; kept with its episode"});
}

void EpisodicDecayRule::supersede(StoreView& store, const Claim& claim, const std::string& old_text,
                                  const std::string& source, const std::string& target) {
  const std::string& body = store.body(target);
  const auto at = engram::knowledge::find_claim(body, old_text);
  // An item superseded before carries its markers as continuation lines:
  // the marker quotes only the claim itself, and the older markers follow,
  // so a history of updates stays a flat list instead of nesting.
  std::string own;
  std::string markers;
  for (const auto& line : engram::text::split_lines(old_text)) {
    const auto bare = engram::text::without_eol(line);
    const auto start = bare.find_first_not_of(" \t");
    if (start != std::string_view::npos && bare.substr(start).starts_with("<!-- superseded ")) {
      markers += "\n" + std::string(bare);
    } else {
      own += line;
    }
  }
  while (!own.empty() && (own.back() == '\n' || own.back() == '\r')) {
    own.pop_back();
  }
  std::string replacement = is_item(old_text)
                                ? (is_item(claim.text) ? claim.text : "- " + claim.text)
                                : as_paragraph_line(claim.text);
  const std::string indent = is_item(old_text) ? "  " : "";
  replacement += "\n" + indent + superseded_marker(store.today(), own) + markers;
  if (at == std::string::npos) {
    // The old text is kept in the marker either way.
    store.replace_in_body(target, body.size(), 0, appendix(body, replacement, false));
  } else {
    store.replace_in_body(target, at, old_text.size(), replacement);
  }
  m_headings.wrote(store, target, replacement);
  store.record(Action{"", "superseded", claim.text, source, target,
                      "updates \"" + one_line(own) + "\", kept in a superseded marker"});
}

std::string EpisodicDecayRule::kind_name(ClaimKind kind) {
  switch (kind) {
  case ClaimKind::factual:
    return "factual";
  case ClaimKind::behavioural:
    return "behavioural";
  case ClaimKind::reference:
    return "reference";
  case ClaimKind::solution:
    return "solution";
  case ClaimKind::task:
    return "task";
  case ClaimKind::metadata:
    return "metadata";
  }
  return "factual";
}

} // namespace engram::episodic_decay
