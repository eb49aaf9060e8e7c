// JSON text of a nlohmann value, byte for byte what its dump writes, faster.
//
// nlohmann's serializer decodes every byte of every string as UTF-8 to find
// what to escape; a consolidation's record and working state are megabytes
// of claim text, and that decoding was most of writing them. Here a string
// checked valid (ICU, as everywhere else) is copied a run at a time between
// the few bytes JSON escapes; anything else, numbers and invalid strings
// included, is written by nlohmann itself.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace engram {

// `value` as value.dump(indent, ' ', false, error_handler_t::replace) writes it:
// indent < 0 is compact; invalid UTF-8 becomes U+FFFD.
std::string json_text(const nlohmann::json& value, int indent = -1);

// json_text appended to `out`.
void append_json_text(std::string& out, const nlohmann::json& value, int indent = -1);

} // namespace engram
