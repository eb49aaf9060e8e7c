// The entries of `.index.json`, reduced to the fields recall ranks by, read
// as a stream of JSON events: a 10,000-entry index is never built as a JSON
// document (whose nodes cost more to make and free than the words in them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace engram::recall {

// One entry of `.index.json`, as JSON gave it: a field that is missing or not
// a string is "", a list keeps its string items only. When a key appears twice
// in an entry the later one counts, as it would in a parsed document.
struct IndexEntry {
  std::string path;
  std::string type;
  std::string salience;
  std::string status;
  std::string created;
  std::string summary;
  std::vector<std::string> tags;
  std::vector<std::string> trigger;
  std::vector<std::string> related;
};

// The entries of the "entries" list of an `.index.json` text, in order; items
// of the list that are not objects are skipped. Throws Error naming `name`
// when the text is not JSON, not an object, or has no "entries" list.
std::vector<IndexEntry> read_index_entries(std::string_view text, std::string_view name);

} // namespace engram::recall
