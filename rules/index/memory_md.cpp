// MEMORY.md as the index rule writes it: a one-line summary of each memory
// in its layer's section, folded to the line budget; or, for an agent that
// keeps its own index (Claude Code's), the pointer lines it lacks. Part of
// the index rule (index.hpp).
#include "engram/text.hpp"
#include "index.hpp"
#include "pointers.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace engram_index::detail {
namespace {

int salience_rank(const std::string& salience) {
  return salience == "high" ? 3 : salience == "medium" ? 2 : salience == "low" ? 1 : 2;
}

// Cuts text to at most `limit` code points, ending with an ellipsis when cut.
std::string cut(const std::string& text, std::size_t limit) {
  if (engram::text::count_chars(text) <= limit) {
    return text;
  }
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool starts = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (starts && ++chars > limit - 1) {
      break;
    }
    out += text[i];
  }
  return out + "…";
}

std::string index_line(const IndexEntry& entry, std::size_t limit) {
  std::string tags;
  for (const auto& tag : entry.tags) {
    tags += (tags.empty() ? "" : " ") + tag;
  }
  std::string line = "- [" + entry.path + "](" + entry.path + ")";
  if (!tags.empty()) {
    line += " `" + tags + "`";
  }
  if (!entry.summary.empty()) {
    line += " — " + entry.summary;
  }
  return cut(line, limit);
}

// A pointer line as Claude Code writes them: `- [Title](file.md) — hook`.
std::string pointer_line(const StoreView& store, const std::string& path, std::size_t limit) {
  auto title = store.field(path, "name").value_or("");
  if (title.empty()) {
    const auto slash = path.rfind('/');
    title = path.substr(slash == std::string::npos ? 0 : slash + 1);
    title = title.substr(0, title.size() - (title.ends_with(".md") ? 3 : 0));
  }
  // What the file is about, not a claim of it: a claim quoted here would
  // stay in the agent's index after a newer one superseded it in the file.
  std::string hook = store.field(path, "description").value_or("");
  if (hook.empty()) {
    for (const auto& tag : store.list(path, "tags")) {
      hook += (hook.empty() ? "" : ", ") + tag;
    }
  }
  if (hook.empty()) {
    hook = summarise(store, path);
  }
  return cut("- [" + title + "](" + path + ")" + (hook.empty() ? "" : " — " + hook), limit);
}

} // namespace

std::string summarise(const StoreView& store, const std::string& path) {
  for (const char* key : {"summary", "description"}) {
    if (auto value = store.field(path, key); value && !value->empty()) {
      return *value;
    }
  }
  const std::string body = store.body(path);
  std::string_view heading;
  bool in_code = false;
  std::size_t pos = 0;
  while (pos < body.size()) {
    const auto nl = body.find('\n', pos);
    const std::size_t next = nl == std::string::npos ? body.size() : nl + 1;
    auto line = engram::text::without_eol(std::string_view(body).substr(pos, next - pos));
    pos = next;
    if (line.starts_with("```") || line.starts_with("~~~")) {
      in_code = !in_code;
      continue;
    }
    if (in_code || engram::text::is_blank(line) || line.starts_with("<!--")) {
      continue;
    }
    if (engram::text::is_heading(line)) {
      if (heading.empty()) {
        heading = line.substr(line.find_first_not_of('#'));
      }
      continue;
    }
    line.remove_prefix(line.find_first_not_of(" \t"));
    if (engram::text::starts_list_item(line)) {
      line.remove_prefix(line.find(' ') + 1);
      if (line.starts_with("[ ] ") || line.starts_with("[x] ") || line.starts_with("[X] ")) {
        line.remove_prefix(4);
      }
    }
    return std::string(line);
  }
  const auto start = heading.find_first_not_of(" \t");
  return start == std::string_view::npos ? std::string() : std::string(heading.substr(start));
}

bool keep_pointers(StoreView& store, const std::string& index_path, std::size_t line_chars) {
  namespace ix = engram_index;
  const std::string overflow(ix::k_overflow);
  const std::string before = store.read(index_path);
  auto linked = ix::linked_targets(before);
  const bool links_overflow = linked.contains(overflow);
  if (store.exists(overflow)) {
    linked.merge(ix::linked_targets(store.read(overflow)));
  }
  std::vector<std::pair<std::string, std::string>> added;
  for (const Layer layer : {Layer::semantic, Layer::procedural, Layer::reference}) {
    for (const auto& path : store.files(layer)) {
      if (path != overflow && !linked.contains(path) && !store.held(path)) {
        added.emplace_back(path, pointer_line(store, path, line_chars));
      }
    }
  }
  std::sort(added.begin(), added.end());
  const auto lines = ix::lines_of(before);
  const std::string overflow_line =
      "- [More memories](" + overflow + ") — index lines past what Claude Code loads from here";
  const auto plan = ix::fit_pointers(
      lines, added, static_cast<std::size_t>(int_setting(store, "profile.index_lines", 0)),
      static_cast<std::size_t>(int_setting(store, "profile.index_bytes", 0)), overflow_line,
      links_overflow);
  if (plan.index == lines && plan.overflow.empty()) {
    return false;
  }
  if (!plan.overflow.empty()) {
    std::string body = store.exists(overflow) ? store.body(overflow) : "# More memories\n\n";
    for (const auto& line : plan.overflow) {
      body += (body.empty() || body.ends_with('\n') ? "" : "\n") + line + "\n";
    }
    if (store.exists(overflow)) {
      store.set_body(overflow, body);
    } else {
      store.write(overflow, "---\nname: More memories\ndescription: index lines past what "
                            "Claude Code loads from MEMORY.md\ntype: index\n---\n" +
                                body);
    }
  }
  // Appended to the agent's bytes as they are when none of its lines moved.
  std::string text = plan.moved == 0 ? before : std::string();
  if (!text.empty() && !text.ends_with('\n')) {
    text += '\n';
  }
  for (std::size_t i = plan.moved == 0 ? lines.size() : 0; i < plan.index.size(); ++i) {
    text += plan.index[i] + "\n";
  }
  store.write(index_path, text);
  for (const auto& path : plan.linked) {
    store.record(engram::Action{"", "linked", "", path, index_path,
                                "a pointer line for a memory the index did not link"});
  }
  for (const auto& path : plan.overflowed) {
    store.record(engram::Action{"", "linked", "", path, overflow,
                                "past what Claude Code loads from " + index_path});
  }
  if (plan.moved != 0) {
    store.record(engram::Action{"", "moved", "", index_path, overflow,
                                std::to_string(plan.moved) +
                                    " lines past what Claude Code loads, to a file it links"});
  }
  return true;
}

std::map<std::string, std::size_t> fold(Sections& sections, std::size_t max_lines) {
  const std::size_t fixed = 4; // title, blank, note, blank
  std::map<std::string, std::size_t> shown;
  std::size_t total = fixed;
  for (auto& [title, section] : sections) {
    // Most salient first, then newest, then by path: the order folding keeps.
    std::stable_sort(section.begin(), section.end(), [](const IndexEntry& a, const IndexEntry& b) {
      if (salience_rank(a.salience) != salience_rank(b.salience)) {
        return salience_rank(a.salience) > salience_rank(b.salience);
      }
      if (a.created != b.created) {
        return a.created > b.created;
      }
      return a.path < b.path;
    });
    shown[title] = section.size();
    total += section.empty() ? 0 : section.size() + 2;
  }
  while (total > max_lines) {
    auto biggest =
        std::max_element(sections.begin(), sections.end(), [&](const auto& a, const auto& b) {
          return shown[a.first] < shown[b.first];
        });
    if (shown[biggest->first] == 0) {
      break;
    }
    if (shown[biggest->first] == biggest->second.size()) {
      ++total; // the section gains its "N more" line
    }
    --shown[biggest->first];
    --total;
  }
  return shown;
}

std::string memory_text(const Sections& sections, const std::map<std::string, std::size_t>& shown,
                        std::size_t line_chars) {
  std::string memory = "# Memory index\n\nGenerated by engram; edit the memories, not this file. "
                       "Every memory is in .index.json.\n\n";
  for (const auto& [title, section] : sections) {
    if (section.empty()) {
      continue;
    }
    memory += "## " + title + " (" + std::to_string(section.size()) + ")\n";
    const auto visible = shown.at(title); // fold gave every section its count
    for (std::size_t i = 0; i < visible; ++i) {
      memory += index_line(section[i], line_chars) + "\n";
    }
    if (visible < section.size()) {
      memory += "- … and " + std::to_string(section.size() - visible) +
                " more, less salient: see .index.json\n";
    }
    memory += "\n";
  }
  return memory;
}

} // namespace engram_index::detail
