// The index rule: rebuilds MEMORY.md (one line per memory, within its line
// budget) and .index.json (every memory, always) from the store model.
#include "engram/plugin.hpp"
#include "engram/text.hpp"
#include "pointers.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
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
    {Layer::working, "Working"},     {Layer::core, "Core"},
    {Layer::semantic, "Semantic"},   {Layer::procedural, "Procedural"},
    {Layer::reference, "Reference"}, {Layer::episodic, "Episodic"}};

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

// Claude Code's MEMORY.md: a pointer line appended for each memory it does not
// link, within what Claude Code loads (pointers.hpp). False when it changed nothing.
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

// Appends `text` as a JSON string. Plain text is copied as it is; anything
// that needs escaping (quotes, control characters, non-ASCII that may not be
// valid UTF-8) goes through the JSON library, which replaces invalid bytes.
void append_json_string(std::string& out, std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte < 0x80 && c != '"' && c != '\\';
  });
  if (plain) {
    out += '"';
    out += text;
    out += '"';
    return;
  }
  out += nlohmann::json(std::string(text))
             .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// One .index.json entry, written as one line of JSON: rendering text directly
// keeps a store of 10,000 files from building (and freeing) a document tree on
// every run, which was most of a one-file cycle's time.
class EntryWriter {
public:
  explicit EntryWriter(std::string& out) : m_out(out) { m_out += '{'; }
  ~EntryWriter() { m_out += '}'; }
  EntryWriter(const EntryWriter&) = delete;
  EntryWriter& operator=(const EntryWriter&) = delete;

  void text(std::string_view key, const std::optional<std::string>& value) {
    name(key);
    if (value) {
      append_json_string(m_out, *value);
    } else {
      m_out += "null";
    }
  }
  void list(std::string_view key, const std::vector<std::string>& values) {
    name(key);
    m_out += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
      m_out += i == 0 ? "" : ", ";
      append_json_string(m_out, values[i]);
    }
    m_out += ']';
  }

private:
  void name(std::string_view key) {
    m_out += m_first ? "" : ", ";
    m_first = false;
    append_json_string(m_out, key);
    m_out += ": ";
  }

  std::string& m_out;
  bool m_first = true;
};

// Appends the .index.json entry of one memory and returns what MEMORY.md shows of it.
IndexEntry write_entry(std::string& out, const StoreView& store, const std::string& path,
                       bool episodic) {
  IndexEntry shown{path,
                   store.field(path, "type").value_or(""),
                   store.list(path, "tags"),
                   store.field(path, "salience").value_or(""),
                   store.field(path, "created").value_or(""),
                   summarise(store, path)};
  EntryWriter entry(out);
  entry.text("path", path);
  entry.text("filename", path.substr(path.rfind('/') + 1));
  entry.text("type", store.field(path, "type"));
  entry.list("tags", shown.tags);
  for (const auto* key : {"salience", "confidence", "source", "created"}) {
    entry.text(key, store.field(path, key));
  }
  entry.text("last_accessed", store.field(path, "last-accessed"));
  entry.text("summary", shown.summary);
  entry.list("related", store.list(path, "related"));
  for (const auto* key : {"project", "status"}) {
    entry.text(key, store.field(path, key));
  }
  entry.list("trigger", store.list(path, "trigger"));
  if (episodic) {
    entry.text("retention", store.field(path, "retention"));
    const auto decay = store.decay_date(path);
    entry.text("decay_after",
               decay ? std::optional<std::string>(decay->to_string()) : std::nullopt);
  }
  // No hash of the file's bytes: the entry describes the memory, and a
  // hash would make every edit of any file a rewrite of the whole index, a
  // large file and git object on a large store, on each agent's write.
  return shown;
}

// .index.json up to its `generated` date; what follows the date is the rest.
constexpr std::string_view k_index_head = "{\n  \"version\": 1,\n  \"generated\": \"";

// The settings the index depends on.
struct Options {
  std::size_t max_lines = 0;  // MEMORY.md's line budget
  std::size_t line_chars = 0; // the most characters of one of its lines
  std::string index_path;     // MEMORY.md
  std::string json_path;      // .index.json
  std::int64_t retention = 0; // decay.retention_days, which episodic entries show
};

// Reads the index's settings from the store.
Options read_options(const StoreView& store) {
  Options options;
  options.max_lines = static_cast<std::size_t>(int_setting(store, "guard.memory_lines", 200));
  options.line_chars = static_cast<std::size_t>(int_setting(store, "guard.memory_line_chars", 150));
  options.index_path = store.layer_path(Layer::index);
  const auto json_setting = store.setting("layout.index_json");
  const auto* json_name = json_setting ? std::get_if<std::string>(&*json_setting) : nullptr;
  options.json_path = json_name == nullptr ? std::string(".index.json") : *json_name;
  options.retention = int_setting(store, "decay.retention_days", 90);
  return options;
}

// MEMORY.md's sections: each one's title and the entries it lists.
using Sections = std::vector<std::pair<std::string, std::vector<IndexEntry>>>;

// Sorts each section in the order folding keeps, then folds the least salient
// entries of the biggest sections until the index fits; returns how many
// entries of each section (by title) MEMORY.md shows.
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

// MEMORY.md as generated: each section's title and the entries `shown` says it shows.
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

// Writes .index.json with its `count` entries, unless only its date would change.
void write_index_json(StoreView& store, const std::string& json_path, const std::string& entries,
                      std::size_t count) {
  // `generated` alone changing is not a change: the old index stands when
  // everything after its date is the same.
  const std::string rest =
      "\",\n  \"entries\": [" + entries + (count == 0 ? "]\n}\n" : "\n  ]\n}\n");
  const std::string today = store.today().to_string();
  if (store.exists(json_path)) {
    const auto old = store.read(json_path);
    if (old.starts_with(k_index_head) && old.ends_with(rest) &&
        old.size() == k_index_head.size() + today.size() + rest.size()) {
      return;
    }
  }
  store.write(json_path, std::string(k_index_head) + today + rest);
  store.record(
      engram::Action{"", "rebuilt", "", "", json_path, std::to_string(count) + " entries"});
}

class IndexRule final : public engram::Rule {
public:
  void run(StoreView& store) override {
    const Options options = read_options(store);
    // Every entry comes from the model, whatever the run. An entry depends
    // only on its file's path and bytes (and the retention setting), so one
    // rendered before from the same bytes is used again: the daemon keeps this
    // rule for its whole life, and a cycle renders only the files that changed.
    const std::lock_guard lock(m_mutex);
    auto& state = m_stores[store.store_name()];
    const std::uint64_t settings = settings_fingerprint(options);
    // The output is these entries in these sections, and the settings (the
    // date alone changes nothing: see write_index_json). When that is what
    // this store's last run saw, and MEMORY.md and .index.json still hold what
    // that run left, they are right as they are: an edit that changes no
    // entry (a line appended to a memory's body) costs no rebuilding. When
    // the host can say what changed since, only those files are looked at.
    if (state.last.fingerprint != 0 && state.last.settings == settings &&
        entries_unchanged(store, state, options.retention) &&
        files_as_left(store, state.last, options.index_path, options.json_path)) {
      state.revision = store.revision();
      return;
    }
    std::uint64_t fingerprint = settings;
    const Listed listed = list_sections(store, state, options.retention, fingerprint);
    if (state.last.fingerprint == fingerprint &&
        files_as_left(store, state.last, options.index_path, options.json_path)) {
      state.revision = store.revision();
      return;
    }
    std::string entries;
    Sections sections = shown_sections(listed, entries);
    if (state.rendered.size() > 2 * listed.count + 1024) {
      // Many files gone: start again next run. The listed pointers are not
      // used past this point.
      state.rendered.clear();
      state.listing = 0;
    }
    const auto shown = fold(sections, options.max_lines);
    write_memory_index(store, options.index_path, memory_text(sections, shown, options.line_chars),
                       options.json_path, options.line_chars);
    write_index_json(store, options.json_path, entries, listed.count);
    // What this run leaves (or finds right) is what the next one compares with.
    state.last = Last{fingerprint, settings, store.content_hash(options.index_path),
                      store.content_hash(options.json_path)};
    state.revision = store.revision();
  }

  void forget(std::string_view store) override {
    const std::lock_guard lock(m_mutex);
    m_stores.erase(std::string(store));
  }

private:
  // An entry as rendered from one version of a file.
  struct Rendered {
    std::string hash;              // the file's content hash it was rendered from
    std::int64_t retention = 0;    // decay.retention_days it was rendered with
    std::string json;              // its line of .index.json
    IndexEntry shown;              // what MEMORY.md shows of it
    std::uint64_t digest = 0;      // of json and shown: what the output takes from it
    Layer layer = Layer::semantic; // the section it was listed in
    std::uint64_t listed = 0;      // the store's listing that last listed it (State::listing)
  };

  static std::uint64_t digest_of(const Rendered& rendered) {
    std::uint64_t h = mix(k_fnv_offset, rendered.json);
    for (const auto* field : {&rendered.shown.path, &rendered.shown.type, &rendered.shown.salience,
                              &rendered.shown.created, &rendered.shown.summary}) {
      h = mix(h, *field);
    }
    for (const auto& tag : rendered.shown.tags) {
      h = mix(h, tag);
    }
    return h;
  }

  // Renders the entry of the file at `path` unless `rendered` is of the same bytes.
  static void render(const StoreView& store, const std::string& path, Layer layer,
                     std::int64_t retention, Rendered& rendered) {
    const auto hash = store.content_hash(path);
    if (rendered.hash != hash || rendered.retention != retention) {
      rendered.json.clear();
      rendered.shown = write_entry(rendered.json, store, path, layer == Layer::episodic);
      rendered.hash = hash;
      rendered.retention = retention;
      rendered.digest = digest_of(rendered);
    }
    rendered.layer = layer;
  }

  // What a store's last run saw and left.
  struct Last {
    std::uint64_t fingerprint = 0; // of its inputs (see run); 0: no run yet
    std::uint64_t settings = 0;    // the settings' part of it
    std::string memory_hash;       // MEMORY.md's content hash after it
    std::string json_hash;         // .index.json's
  };

  // What this rule keeps of one store between runs.
  struct State {
    Last last;
    std::uint64_t revision = 0; // the model's when the last run ended (StoreView::revision)
    std::uint64_t listing = 0;  // counts the runs that listed every file
    std::unordered_map<std::string, Rendered> rendered; // by path
  };

  // The entries of every section, as one run lists them.
  struct Listed {
    std::vector<std::vector<const Rendered*>> inputs; // by section; State::rendered's nodes
    std::size_t count = 0;                            // how many in all
  };

  // Lists the files of every section, rendering those whose bytes changed, and
  // mixes what the output takes from each into `fingerprint`.
  static Listed list_sections(const StoreView& store, State& state, std::int64_t retention,
                              std::uint64_t& fingerprint) {
    Listed listed;
    ++state.listing;
    for (const auto& [layer, title] : k_sections) {
      auto& section = listed.inputs.emplace_back();
      fingerprint = mix(fingerprint, title);
      for (const auto& path : store.files(layer)) {
        auto& rendered = state.rendered[path];
        render(store, path, layer, retention, rendered);
        rendered.listed = state.listing;
        fingerprint = mix(fingerprint, rendered.digest);
        section.push_back(&rendered); // unordered_map nodes stay where they are
        ++listed.count;
      }
    }
    return listed;
  }

  // MEMORY.md's sections of the listed entries; appends each entry's line of
  // .index.json to `entries`.
  static Sections shown_sections(const Listed& listed, std::string& entries) {
    Sections sections;
    std::size_t at = 0;
    std::size_t written = 0;
    for (const auto& [layer, title] : k_sections) {
      std::vector<IndexEntry> section;
      section.reserve(listed.inputs[at].size());
      for (const auto* rendered : listed.inputs[at]) {
        entries += written++ == 0 ? "\n    " : ",\n    ";
        entries += rendered->json;
        section.push_back(rendered->shown);
      }
      sections.emplace_back(title, std::move(section));
      ++at;
    }
    return sections;
  }

  // Whether MEMORY.md and .index.json still hold what the last run left.
  static bool files_as_left(const StoreView& store, const Last& last, const std::string& index_path,
                            const std::string& json_path) {
    return !last.memory_hash.empty() && !last.json_hash.empty() &&
           store.content_hash(index_path) == last.memory_hash &&
           store.content_hash(json_path) == last.json_hash;
  }

  // Whether every entry the last run listed is still what it was, in the
  // same section, and no file came into a section or left it, as far as the
  // files the host says changed since tell; false when it cannot say.
  static bool entries_unchanged(const StoreView& store, State& state, std::int64_t retention) {
    if (state.revision == 0 || state.listing == 0) {
      return false;
    }
    const auto changed = store.changed_since(state.revision);
    if (!changed) {
      return false;
    }
    for (const auto& path : *changed) {
      const auto layer = store.layer_of(path);
      const bool listed = layer && std::any_of(k_sections.begin(), k_sections.end(),
                                               [&](const auto& s) { return s.first == *layer; });
      const auto it = state.rendered.find(path);
      const bool was = it != state.rendered.end() && it->second.listed == state.listing;
      if (listed != was) {
        return false;
      }
      if (!listed) {
        continue;
      }
      if (it->second.layer != *layer) {
        return false;
      }
      const auto digest = it->second.digest;
      render(store, path, *layer, retention, it->second);
      if (it->second.digest != digest) {
        return false;
      }
    }
    return true;
  }

  static constexpr std::uint64_t k_fnv_offset = 14695981039346656037ULL;

  // FNV-1a over a string's bytes and a separator, or over a number.
  static std::uint64_t mix(std::uint64_t h, std::string_view text) {
    for (const char c : text) {
      h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    }
    return (h ^ 0xffU) * 1099511628211ULL;
  }
  static std::uint64_t mix(std::uint64_t h, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
      h = (h ^ ((value >> (8 * i)) & 0xffU)) * 1099511628211ULL;
    }
    return h;
  }

  // The settings' part of a run's fingerprint, which the rest is mixed into.
  static std::uint64_t settings_fingerprint(const Options& options) {
    const std::uint64_t fingerprint =
        mix(mix(mix(k_fnv_offset, options.max_lines), options.line_chars), options.retention);
    return mix(mix(fingerprint, options.index_path), options.json_path);
  }

  std::mutex m_mutex;                    // a rule may serve several stores' runs
  std::map<std::string, State> m_stores; // by store name

  // MEMORY.md as rendered, unless it is the agent's own: then its lines stay
  // as written, and a Claude Code index gains its pointer lines.
  static void write_memory_index(StoreView& store, const std::string& index_path,
                                 const std::string& memory, const std::string& json_path,
                                 std::size_t line_chars) {
    if (store.exists(index_path) && !engram::text::is_generated(store.read(index_path))) {
      // The agent keeps its own MEMORY.md (Claude Code's index, OpenClaw's
      // curated memory): its lines stay as written; .index.json lists every memory.
      const auto style = store.setting("profile.index");
      const auto* name = style ? std::get_if<std::string>(&*style) : nullptr;
      if (name == nullptr || *name != "pointers" || !keep_pointers(store, index_path, line_chars)) {
        store.record(engram::Action{"", "kept", "", "", index_path,
                                    "the agent's own file (it does not say \"" +
                                        std::string(engram::text::k_generated_mark) +
                                        "\"): left as written; every memory is in " + json_path});
      }
    } else {
      write_if_changed(store, index_path, memory, "MEMORY.md index");
    }
  }

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
