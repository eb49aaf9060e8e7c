// The index rule: rebuilds MEMORY.md (one line per memory, within its line
// budget) and .index.json (every memory, always) from the store model.
#include "engram/plugin.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using engram::Layer;
using engram::StoreView;

// One memory as the index shows it.
struct IndexEntry {
  std::string path;
  std::string type;
  std::vector<std::string> tags;
  std::string salience;
  std::string created;
  std::string summary;
};

// The layers MEMORY.md lists, in order, with their section titles.
const std::vector<std::pair<Layer, std::string>> k_sections = {
    {Layer::working, "Working"},     {Layer::core, "Core"},           {Layer::semantic, "Semantic"},
    {Layer::procedural, "Procedural"}, {Layer::reference, "Reference"}, {Layer::episodic, "Episodic"}};

std::int64_t int_setting(const StoreView& store, std::string_view key, std::int64_t fallback) {
  const auto value = store.setting(key);
  const auto* n = value ? std::get_if<std::int64_t>(&*value) : nullptr;
  return n == nullptr ? fallback : *n;
}

int salience_rank(const std::string& salience) {
  return salience == "high" ? 3 : salience == "medium" ? 2 : salience == "low" ? 1 : 2;
}

// A one-line summary: the `summary` or `description` field, else the first line of text.
std::string summarise(const StoreView& store, const std::string& path) {
  for (const char* key : {"summary", "description"}) {
    if (auto value = store.field(path, key); value && !value->empty()) {
      return *value;
    }
  }
  std::string heading;
  bool in_code = false;
  for (const auto& raw : engram::text::split_lines(store.body(path))) {
    auto line = std::string(engram::text::without_eol(raw));
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
    const auto start = line.find_first_not_of(" \t");
    line = line.substr(start);
    if (engram::text::starts_list_item(line)) {
      line = line.substr(line.find(' ') + 1);
      if (line.starts_with("[ ] ") || line.starts_with("[x] ") || line.starts_with("[X] ")) {
        line = line.substr(4);
      }
    }
    return line;
  }
  const auto start = heading.find_first_not_of(" \t");
  return start == std::string::npos ? std::string() : heading.substr(start);
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

nlohmann::json json_entry(const StoreView& store, const std::string& path, const std::string& summary,
                          bool episodic) {
  auto scalar = [&](const char* key) -> nlohmann::json {
    auto value = store.field(path, key);
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  };
  nlohmann::json entry = {{"path", path},
                          {"filename", path.substr(path.rfind('/') + 1)},
                          {"type", scalar("type")},
                          {"tags", store.list(path, "tags")},
                          {"salience", scalar("salience")},
                          {"confidence", scalar("confidence")},
                          {"source", scalar("source")},
                          {"created", scalar("created")},
                          {"last_accessed", scalar("last-accessed")},
                          {"summary", summary},
                          {"related", store.list(path, "related")},
                          {"project", scalar("project")},
                          {"status", scalar("status")},
                          {"trigger", store.list(path, "trigger")}};
  if (episodic) {
    entry["retention"] = scalar("retention");
    const auto decay = store.decay_date(path);
    entry["decay_after"] = decay ? nlohmann::json(decay->to_string()) : nlohmann::json(nullptr);
  }
  return entry;
}

// The fields MEMORY.md shows, read back from an .index.json entry.
IndexEntry index_entry(const nlohmann::json& entry) {
  auto text = [&](const char* key) {
    const auto it = entry.find(key);
    return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  std::vector<std::string> tags;
  if (const auto it = entry.find("tags"); it != entry.end() && it->is_array()) {
    for (const auto& tag : *it) {
      if (tag.is_string()) {
        tags.push_back(tag.get<std::string>());
      }
    }
  }
  return IndexEntry{text("path"), text("type"), std::move(tags), text("salience"), text("created"),
                    text("summary")};
}

// The entries of the current .index.json by path; empty when it is missing or unreadable.
std::map<std::string, nlohmann::json> previous_entries(const StoreView& store, const std::string& path) {
  std::map<std::string, nlohmann::json> out;
  if (!store.exists(path)) {
    return out;
  }
  try {
    const auto index = nlohmann::json::parse(store.read(path));
    for (const auto& entry : index.value("entries", nlohmann::json::array())) {
      if (entry.is_object() && entry.contains("path") && entry["path"].is_string()) {
        out.emplace(entry["path"].get<std::string>(), entry);
      }
    }
  } catch (const nlohmann::json::exception&) {
    // Unreadable: every entry is rebuilt.
  }
  return out;
}

class IndexRule final : public engram::Rule {
public:
  void run(StoreView& store) override {
    const auto max_lines = static_cast<std::size_t>(int_setting(store, "guard.memory_lines", 200));
    const auto line_chars = static_cast<std::size_t>(int_setting(store, "guard.memory_line_chars", 150));
    const auto index_path = store.layer_path(Layer::index);
    const auto json_setting = store.setting("layout.index_json");
    const auto* json_name = json_setting ? std::get_if<std::string>(&*json_setting) : nullptr;
    const auto json_path = json_name == nullptr ? std::string(".index.json") : *json_name;

    // In a lightweight run an entry is rebuilt only when its file's bytes changed.
    const auto previous = previous_entries(store, json_path);
    const bool reuse = store.run_kind() == engram::RunKind::lightweight;

    nlohmann::json entries = nlohmann::json::array();
    std::vector<std::pair<std::string, std::vector<IndexEntry>>> sections;
    for (const auto& [layer, title] : k_sections) {
      std::vector<IndexEntry> section;
      for (const auto& path : store.files(layer)) {
        const auto hash = store.content_hash(path);
        const auto old = previous.find(path);
        nlohmann::json entry;
        if (reuse && old != previous.end() && old->second.value("hash", "") == hash) {
          entry = old->second;
        } else {
          entry = json_entry(store, path, summarise(store, path), layer == Layer::episodic);
          entry["hash"] = hash;
        }
        section.push_back(index_entry(entry));
        entries.push_back(std::move(entry));
      }
      sections.emplace_back(title, std::move(section));
    }

    // Fold the least salient entries of the biggest sections until the index fits.
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
      auto biggest = std::max_element(sections.begin(), sections.end(), [&](const auto& a, const auto& b) {
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

    std::string memory = "# Memory index\n\nGenerated by engram; edit the memories, not this file. "
                         "Every memory is in .index.json.\n\n";
    for (const auto& [title, section] : sections) {
      if (section.empty()) {
        continue;
      }
      memory += "## " + title + " (" + std::to_string(section.size()) + ")\n";
      const auto visible = shown[title];
      for (std::size_t i = 0; i < visible; ++i) {
        memory += index_line(section[i], line_chars) + "\n";
      }
      if (visible < section.size()) {
        memory += "- … and " + std::to_string(section.size() - visible) +
                  " more, less salient: see .index.json\n";
      }
      memory += "\n";
    }
    write_if_changed(store, index_path, memory, "MEMORY.md index");

    nlohmann::json index = {{"version", 1}, {"generated", store.today().to_string()}, {"entries", entries}};
    auto json_text = index.dump(2) + "\n";
    // `generated` alone changing is not a change: keep the old date when nothing else moved.
    if (store.exists(json_path)) {
      try {
        auto old = nlohmann::json::parse(store.read(json_path));
        if (old.value("entries", nlohmann::json()) == entries) {
          return;
        }
      } catch (const nlohmann::json::exception&) {
        // Unreadable: rebuild it.
      }
    }
    store.write(json_path, json_text);
    store.record(engram::Action{"", "rebuilt", "", "", json_path,
                                std::to_string(entries.size()) + " entries"});
  }

private:
  static void write_if_changed(StoreView& store, const std::string& path, const std::string& text,
                               const std::string& what) {
    if (store.exists(path) && store.read(path) == text) {
      return;
    }
    store.write(path, text);
    store.record(engram::Action{"", "rebuilt", "", "", path, what});
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(IndexRule, "index", engram::Phase::index,
                   "rebuilds MEMORY.md and .index.json from every layer", "0.1.0", true)
