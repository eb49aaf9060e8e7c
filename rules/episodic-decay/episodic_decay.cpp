// The episodic-decay rule: an episodic memory past its decay date is split
// into claims; each claim is absorbed where it belongs (semantic, procedural,
// reference), recorded as a duplicate of what is already there, or updates an
// older claim that is kept in a superseded marker. The file is removed only
// when every one of its claims is accounted for in the record.
#include "engram/plugin.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using engram::Action;
using engram::Claim;
using engram::ClaimKind;
using engram::Layer;
using engram::Relation;
using engram::StoreView;

int salience_rank(const std::optional<std::string>& salience) {
  return salience == "high" ? 3 : salience == "low" ? 1 : 2;
}

std::vector<std::string> canonical(const StoreView& store, const std::vector<std::string>& tags) {
  std::vector<std::string> out;
  for (const auto& tag : tags) {
    auto c = store.canonical_tag(tag);
    if (!c.empty()) {
      out.push_back(std::move(c));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::size_t shared(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  return both.size();
}

std::string one_line(std::string_view text) {
  std::string out;
  for (char c : text) {
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

bool is_item(std::string_view text) { return engram::text::starts_list_item(text); }

// The claim as it is written into a target: a list item when it is one line.
std::string as_entry(const Claim& claim) {
  if (is_item(claim.text) || claim.text.find('\n') != std::string::npos) {
    return claim.text;
  }
  return "- " + claim.text;
}

// Appends a block to a body, separated the way Markdown needs.
std::string appended(std::string body, const std::string& block, bool as_paragraph) {
  if (!body.empty() && body.back() != '\n') {
    body += '\n';
  }
  const bool body_ends_in_item = [&] {
    const auto lines = engram::text::split_lines(body);
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
      if (!engram::text::is_blank(*it)) {
        return is_item(*it);
      }
    }
    return false;
  }();
  if (!body.empty() && (as_paragraph || !body_ends_in_item) && !body.ends_with("\n\n")) {
    body += '\n';
  }
  return body + block + (block.ends_with('\n') ? "" : "\n");
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Where a `## <title>` section of a body ends (the start of the next heading of level ≤ 2).
struct Section {
  std::size_t heading; // offset of the heading line
  std::size_t end;     // offset just past the section
};

std::optional<Section> find_section(const std::string& body, const std::string& heading_text) {
  std::size_t pos = 0;
  std::optional<Section> found;
  while (pos < body.size()) {
    const auto nl = body.find('\n', pos);
    const std::size_t next = nl == std::string::npos ? body.size() : nl + 1;
    const auto line = std::string(engram::text::without_eol(std::string_view(body).substr(pos, next - pos)));
    const bool level2 = line.starts_with("## ") || line == "##";
    const bool level1 = line.starts_with("# ");
    if (found && (level1 || level2)) {
      found->end = pos;
      return found;
    }
    if (!found && level2) {
      auto title = line.substr(2);
      title.erase(0, title.find_first_not_of(" \t"));
      while (!title.empty() && (title.back() == ' ' || title.back() == '#')) {
        title.pop_back();
      }
      if (lower(title) == lower(heading_text)) {
        found = Section{pos, body.size()};
      }
    }
    pos = next;
  }
  return found;
}

// Inserts a block at the end of a section, after its last non-blank line.
std::string insert_in_section(const std::string& body, const Section& section, const std::string& block) {
  std::size_t at = section.end;
  while (at > section.heading && (body[at - 1] == '\n' || body[at - 1] == '\r' || body[at - 1] == ' ')) {
    --at;
  }
  std::string out = body.substr(0, at) + "\n" + block;
  if (!block.ends_with('\n')) {
    out += '\n';
  }
  const std::string rest = body.substr(at);
  return out + (rest.find_first_not_of("\r\n ") == std::string::npos ? "" : "\n" + rest.substr(rest.find_first_not_of("\r\n ")));
}

// The `## Title` a behavioural claim is filed under: its nearest heading, else its first words.
std::string title_for(const Claim& claim) {
  if (!claim.context.empty()) {
    const auto sep = claim.context.rfind(" > ");
    return sep == std::string::npos ? claim.context : claim.context.substr(sep + 3);
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
  while (!title.empty() && std::string_view(".,;:!?").find(title.back()) != std::string_view::npos) {
    title.pop_back();
  }
  return title.empty() ? "Feedback" : title;
}

std::string quote_for_marker(std::string text) {
  text = one_line(text);
  for (std::size_t at = text.find("-->"); at != std::string::npos; at = text.find("-->", at)) {
    text.replace(at, 3, "--&gt;");
  }
  for (std::size_t at = text.find('"'); at != std::string::npos; at = text.find('"', at + 2)) {
    text.replace(at, 1, "\\\"");
  }
  return text;
}

class EpisodicDecayRule final : public engram::Rule {
public:
  void run(StoreView& store) override {
    m_claims.clear(); // the rule object lives across runs; its cache must not
    for (const auto& path : store.files(Layer::episodic)) {
      const auto when = store.decay_date(path);
      if (!when || !(*when < store.today())) {
        continue; // not yet, or never: a date engram cannot read never removes a file
      }
      decay(store, path, *when);
    }
  }

private:
  void decay(StoreView& store, const std::string& path, engram::Date when) {
    const auto tags = store.list(path, "tags");
    const auto canon = canonical(store, tags);
    const auto claims = store.claims(store.body(path));
    std::size_t accounted = 0;
    for (const auto& claim : claims) {
      std::string target;
      switch (claim.kind) {
      case ClaimKind::reference: target = tagged_target(store, Layer::reference, tags, canon, path); break;
      case ClaimKind::behavioural:
      case ClaimKind::solution: target = store.layer_path(Layer::procedural) + "/feedback.md"; break;
      case ClaimKind::factual: target = tagged_target(store, Layer::semantic, tags, canon, path); break;
      }
      absorb(store, claim, path, target, tags);
      ++accounted;
    }
    if (accounted != claims.size()) {
      return; // unreachable by construction; never remove a file with unaccounted claims
    }
    store.remove(path);
    store.record(Action{"", "decayed", "", path, "",
                        "decay date " + when.to_string() + " is before " + store.today().to_string() + "; " +
                            std::to_string(claims.size()) + " claims accounted for"});
  }

  // The file with the most shared canonical tags (at least 2); ties: salience,
  // then newer `created`, then path. None: a new file named from the sorted tags.
  static std::string tagged_target(const StoreView& store, Layer layer, const std::vector<std::string>& tags,
                                   const std::vector<std::string>& canon, const std::string& source) {
    std::string best;
    std::size_t best_shared = 0;
    int best_salience = 0;
    std::string best_created;
    for (const auto& candidate : store.files(layer)) {
      const auto n = shared(canon, canonical(store, store.list(candidate, "tags")));
      if (n < 2) {
        continue;
      }
      const int salience = salience_rank(store.field(candidate, "salience"));
      const auto created = store.date(candidate, "created");
      const std::string created_text = created ? created->to_string() : "";
      if (best.empty() || n > best_shared || (n == best_shared && salience > best_salience) ||
          (n == best_shared && salience == best_salience && created_text > best_created)) {
        best = candidate;
        best_shared = n;
        best_salience = salience;
        best_created = created_text;
      }
    }
    if (!best.empty()) {
      return best;
    }
    std::vector<std::string> sorted = tags;
    std::sort(sorted.begin(), sorted.end());
    std::string name;
    for (const auto& tag : sorted) {
      name += (name.empty() ? "" : "-") + tag;
    }
    if (name.empty()) {
      // No tags: name it after the episode, without its date.
      name = source.substr(source.rfind('/') + 1);
      name = name.substr(0, name.size() - 3);
      if (name.size() > 11 && engram::Date::parse(name.substr(0, 10))) {
        name = name.substr(11);
      }
    }
    return store.layer_path(layer) + "/" + store.slug(name) + ".md";
  }

  static void create(StoreView& store, const std::string& target, const std::vector<std::string>& tags) {
    const auto today = store.today().to_string();
    const bool procedural = target.starts_with(store.layer_path(Layer::procedural) + "/");
    const bool reference = target.starts_with(store.layer_path(Layer::reference) + "/");
    std::string tag_list;
    for (const auto& tag : procedural ? std::vector<std::string>{"feedback"} : tags) {
      tag_list += (tag_list.empty() ? "" : ", ") + tag;
    }
    const std::string type = procedural ? "procedural" : reference ? "reference" : "semantic";
    const std::string title = procedural ? "Feedback" : reference ? "References" : "Knowledge";
    store.write(target, "---\ntype: " + type + "\ntags: [" + tag_list + "]\nsalience: medium\nconfidence: high\n" +
                            "source: " + (procedural ? "instructed" : reference ? "referenced" : "observed") +
                            "\nstatus: confirmed\ntrigger: []\nrelated: []\ncreated: " + today +
                            "\nlast-accessed: " + today + "\n---\n# " + title + "\n");
  }

  // The claims of a file's current body, split once per body.
  const std::vector<Claim>& claims_of(const StoreView& store, const std::string& path) {
    auto body = store.body(path);
    auto& cached = m_claims[path];
    if (cached.first != body || (cached.second.empty() && !body.empty())) {
      cached.second = store.claims(body);
      cached.first = std::move(body);
    }
    return cached.second;
  }

  // A file of the claim's layer, other than `target`, that already holds it:
  // the file and the existing text. Knowledge the store has anywhere is not appended again.
  std::optional<std::pair<std::string, std::string>> duplicate_elsewhere(const StoreView& store,
                                                                         const Claim& claim,
                                                                         const std::string& target) {
    const Layer layer = claim.kind == ClaimKind::reference     ? Layer::reference
                        : claim.kind == ClaimKind::behavioural ? Layer::procedural
                                                               : Layer::semantic;
    for (const auto& other : store.files(layer)) {
      if (other == target) {
        continue;
      }
      for (const auto& old : claims_of(store, other)) {
        if (store.compare(claim.text, old.text) == Relation::duplicate) {
          return std::make_pair(other, old.text);
        }
      }
    }
    return std::nullopt;
  }

  void absorb(StoreView& store, const Claim& claim, const std::string& source, const std::string& target,
              const std::vector<std::string>& tags) {
    const bool present = store.exists(target);
    auto body = present ? store.body(target) : std::string();
    const std::vector<Claim> existing = present ? claims_of(store, target) : std::vector<Claim>{};
    const Claim* update = nullptr;
    for (const auto& old : existing) {
      const auto relation = claim.kind == ClaimKind::solution && old.kind == ClaimKind::solution
                                ? (lower(old.title) == lower(claim.title) ? Relation::update : Relation::distinct)
                                : store.compare(claim.text, old.text);
      if (relation == Relation::duplicate) {
        store.record(Action{"", "duplicate", claim.text, source, target,
                            "already there as \"" + one_line(old.text) + "\""});
        return;
      }
      if (relation == Relation::update && update == nullptr) {
        update = &old;
      }
    }
    if (update != nullptr && claim.kind != ClaimKind::solution) {
      supersede(store, claim, *update, source, target, body);
      return;
    }
    if (claim.kind != ClaimKind::solution) {
      if (const auto elsewhere = duplicate_elsewhere(store, claim, target)) {
        store.record(Action{"", "duplicate", claim.text, source, elsewhere->first,
                            "already there as \"" + one_line(elsewhere->second) + "\""});
        return;
      }
    }
    if (!present) {
      create(store, target, tags);
      body = store.body(target);
    }
    std::string new_body;
    if (claim.kind == ClaimKind::solution) {
      const auto section = find_section(body, "Solution: " + claim.title);
      if (section) {
        // Amend in place: add the lines the old section does not have yet.
        const auto old_section = body.substr(section->heading, section->end - section->heading);
        std::string missing;
        const auto lines = engram::text::split_lines(claim.text);
        for (std::size_t i = 1; i < lines.size(); ++i) {
          const auto line = std::string(engram::text::without_eol(lines[i]));
          if (!engram::text::is_blank(line) && old_section.find(line) == std::string::npos) {
            missing += line + "\n";
          }
        }
        if (missing.empty()) {
          store.record(Action{"", "duplicate", claim.text, source, target,
                              "solution '" + claim.title + "' already holds every line"});
          return;
        }
        new_body = insert_in_section(body, *section, missing);
      } else {
        new_body = appended(body, claim.text, true);
      }
    } else if (claim.kind == ClaimKind::behavioural) {
      const auto title = title_for(claim);
      const auto section = find_section(body, title);
      new_body = section ? insert_in_section(body, *section, as_entry(claim))
                         : appended(body, "## " + title + "\n\n" + as_entry(claim), true);
    } else {
      new_body = appended(body, as_entry(claim), claim.text.find('\n') != std::string::npos);
    }
    store.set_body(target, new_body);
    store.record(Action{"", "absorbed", claim.text, source, target, kind_name(claim.kind)});
  }

  static void supersede(StoreView& store, const Claim& claim, const Claim& old, const std::string& source,
                        const std::string& target, const std::string& body) {
    const auto at = body.find(old.text);
    // An item superseded before carries its markers as continuation lines:
    // the marker quotes only the claim itself, and the older markers follow,
    // so a history of updates stays a flat list instead of nesting.
    std::string own;
    std::string markers;
    for (const auto& line : engram::text::split_lines(old.text)) {
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
    std::string replacement = is_item(old.text) && !is_item(claim.text) ? "- " + claim.text : claim.text;
    const std::string indent = is_item(old.text) ? "  " : "";
    replacement += "\n" + indent + "<!-- superseded " + store.today().to_string() + ": previously \"" +
                   quote_for_marker(own) + "\" -->" + markers;
    std::string new_body;
    if (at == std::string::npos) {
      new_body = appended(body, replacement, false); // the old text is kept in the marker either way
    } else {
      new_body = body.substr(0, at) + replacement + body.substr(at + old.text.size());
    }
    store.set_body(target, new_body);
    store.record(Action{"", "superseded", claim.text, source, target,
                        "updates \"" + one_line(own) + "\", kept in a superseded marker"});
  }

  // Claims per file path, with the body they were split from.
  std::map<std::string, std::pair<std::string, std::vector<Claim>>> m_claims;

  static std::string kind_name(ClaimKind kind) {
    switch (kind) {
    case ClaimKind::factual: return "factual";
    case ClaimKind::behavioural: return "behavioural";
    case ClaimKind::reference: return "reference";
    case ClaimKind::solution: return "solution";
    }
    return "factual";
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(EpisodicDecayRule, "episodic-decay", engram::Phase::decay,
                   "absorbs expired episodic memories claim by claim into semantic, procedural and reference",
                   "0.1.0", false)
