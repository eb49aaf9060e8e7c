// The index rule: rebuilds MEMORY.md (one line per memory, within its line
// budget) and .index.json (every memory, always) from the store model.
// What MEMORY.md shows is memory_md.cpp's, .index.json index_json.cpp's; this
// file holds the rule, which renders only what changed since its last run.
#include "index.hpp"

#include "engram/plugin.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace engram_index::detail {

std::int64_t int_setting(const StoreView& store, std::string_view key, std::int64_t fallback) {
  const auto value = store.setting(key);
  const auto* n = value ? std::get_if<std::int64_t>(&*value) : nullptr;
  return n == nullptr ? fallback : *n;
}

} // namespace engram_index::detail

namespace {

using engram::Layer;
using engram::StoreView;
using engram_index::detail::fold;
using engram_index::detail::IndexEntry;
using engram_index::detail::int_setting;
using engram_index::detail::k_sections;
using engram_index::detail::keep_pointers;
using engram_index::detail::memory_text;
using engram_index::detail::Sections;
using engram_index::detail::write_entry;
using engram_index::detail::write_index_json;

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
