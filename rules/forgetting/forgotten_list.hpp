// The day's list of forgotten memories, `archive/YYYY-MM-DD-forgotten.json`
// (the memory-consolidation seed's "Archive Before Forgetting"): a JSON array,
// one object per memory with its stats and the reason, appended to when the
// day already has one. A list engram cannot read is never overwritten: the
// entries go to the next free name instead.
#pragma once

#include "engram/rule.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::forgetting {

using Json = nlohmann::ordered_json;

// A list's entries, when `bytes` is a JSON array; nullopt otherwise.
inline std::optional<Json> read_list(std::string_view bytes) {
  try {
    auto list = Json::parse(bytes);
    if (list.is_array()) {
      return list;
    }
  } catch (const Json::exception&) {
    // Not JSON: not ours to rewrite.
  }
  return std::nullopt;
}

// A list as the file holds it: indented, ending in a newline.
inline std::string render_list(const Json& list) {
  return list.dump(2) + "\n";
}

// Where today's entries go and what the file then holds: the day's list with
// the entries appended, or, when a file of that name is not a list engram can
// read, the first free `-N` name after it.
struct ListWrite {
  std::string path;      // store-relative
  std::string bytes;     // the whole new file
  bool appended = false; // entries were added to an existing list
};

// Builds the write of `entries` into the day's list in `archive`.
inline ListWrite list_write(const StoreView& store, const std::string& archive, Date today,
                            const std::vector<Json>& entries) {
  const std::string stem = archive + "/" + today.to_string() + "-forgotten";
  for (int n = 1;; ++n) {
    const std::string path = stem + (n == 1 ? "" : "-" + std::to_string(n)) + ".json";
    if (store.held(path)) {
      continue; // an undo brought it back (or away): the next name is free of it
    }
    if (!store.exists(path)) {
      Json list = Json::array();
      for (const auto& entry : entries) {
        list.push_back(entry);
      }
      return ListWrite{path, render_list(list), false};
    }
    if (auto list = read_list(store.read(path))) {
      for (const auto& entry : entries) {
        list->push_back(entry);
      }
      return ListWrite{path, render_list(*list), true};
    }
  }
}

} // namespace engram::forgetting
