// What the index rule's pieces share: the entry MEMORY.md shows of one
// memory, its sections, and the functions index.cpp's rule calls to render
// MEMORY.md (memory_md.cpp) and .index.json (index_json.cpp).
#pragma once

#include "engram/rule.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace engram_index::detail {

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
inline const std::vector<std::pair<Layer, std::string>> k_sections = {
    {Layer::working, "Working"},     {Layer::core, "Core"},
    {Layer::semantic, "Semantic"},   {Layer::procedural, "Procedural"},
    {Layer::reference, "Reference"}, {Layer::episodic, "Episodic"}};

// MEMORY.md's sections: each one's title and the entries it lists.
using Sections = std::vector<std::pair<std::string, std::vector<IndexEntry>>>;

// An integer setting, else `fallback` (index.cpp).
std::int64_t int_setting(const StoreView& store, std::string_view key, std::int64_t fallback);

// MEMORY.md (memory_md.cpp).

// A one-line summary: the `summary` or `description` field, else the first line of text.
std::string summarise(const StoreView& store, const std::string& path);

// Claude Code's MEMORY.md: a pointer line appended for each memory it does not
// link, within what Claude Code loads (pointers.hpp). False when it changed nothing.
bool keep_pointers(StoreView& store, const std::string& index_path, std::size_t line_chars);

// Sorts each section in the order folding keeps, then folds the least salient
// entries of the biggest sections until the index fits; returns how many
// entries of each section (by title) MEMORY.md shows.
std::map<std::string, std::size_t> fold(Sections& sections, std::size_t max_lines);

// MEMORY.md as generated: each section's title and the entries `shown` says it shows.
std::string memory_text(const Sections& sections, const std::map<std::string, std::size_t>& shown,
                        std::size_t line_chars);

// .index.json (index_json.cpp).

// Appends the .index.json entry of one memory and returns what MEMORY.md shows of it.
IndexEntry write_entry(std::string& out, const StoreView& store, const std::string& path,
                       bool episodic);

// Writes .index.json with its `count` entries, unless only its date would change.
void write_index_json(StoreView& store, const std::string& json_path, const std::string& entries,
                      std::size_t count);

} // namespace engram_index::detail
