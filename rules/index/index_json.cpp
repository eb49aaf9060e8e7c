// .index.json as the index rule writes it: every memory, one line of JSON
// each, rendered as text; rewritten only when more than its date changes.
// Part of the index rule (index.hpp).
#include "index.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram_index::detail {
namespace {

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

// .index.json up to its `generated` date; what follows the date is the rest.
constexpr std::string_view k_index_head = "{\n  \"version\": 1,\n  \"generated\": \"";

} // namespace

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

} // namespace engram_index::detail
