// JSON text of a nlohmann value, byte for byte what its dump writes, faster.
//
// nlohmann's serializer decodes every byte of every string as UTF-8 to find
// what to escape; a consolidation's record and working state are megabytes
// of claim text, and that decoding was most of writing them. Here a string
// checked valid (ICU, as everywhere else) is copied a run at a time between
// the few bytes JSON escapes; anything else, numbers and invalid strings
// included, is written by nlohmann itself.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace engram {

// `value` as value.dump(indent, ' ', false, error_handler_t::replace) writes it:
// indent < 0 is compact; invalid UTF-8 becomes U+FFFD.
std::string json_text(const nlohmann::json& value, int indent = -1);

// json_text appended to `out`.
void append_json_text(std::string& out, const nlohmann::json& value, int indent = -1);

// The text json_text gives for a document built first, written as it goes:
// for a document whose building would cost more than writing it (a full
// consolidation's record: thousands of objects, megabytes of claim text).
// An object's members must come in the order nlohmann keeps them, sorted by
// key (JsonMember sorts them); the writer lays out what it is given.
class JsonWriter {
public:
  // Appends to `out`; `indent` as json_text's.
  JsonWriter(std::string& out, int indent) : m_out(out), m_indent(indent) {}

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  // The next member's key; its value follows.
  void key(std::string_view key);

  // A string value.
  void string(std::string_view text);

  // Any value, written as json_text writes it at this depth.
  void value(const nlohmann::json& value);

  // A value already written as compact JSON text, copied as it is: only for
  // a compact writer (indent < 0), where no layout depends on the depth.
  void compact_text(std::string_view text);

  // From now on, whenever what was written passes `every` bytes, `drain`
  // takes it and writing goes on into the emptied text: a document of
  // megabytes goes out in pieces through one buffer instead of being held
  // whole. drain() gives it the rest.
  void drain_every(std::size_t every, std::function<void(std::string&)> drain);
  void drain();

private:
  // Before a value: the comma and line break an item or member needs.
  void next();
  void open(char bracket);
  void close(char bracket);

  std::string& m_out;
  int m_indent;
  std::vector<std::size_t> m_counts; // per open container, what it holds so far
  bool m_after_key = false;          // the next value is a member's, its key written
  std::size_t m_drain_at = 0;        // drain_every's `every`
  std::function<void(std::string&)> m_drain;
};

// One member of an object written by a JsonWriter: its key, and what writes its value.
struct JsonMember {
  std::string key;
  std::function<void(JsonWriter&)> write;
};

// An object of `members`, written in nlohmann's order (sorted by key).
void write_object(JsonWriter& writer, std::vector<JsonMember> members);

} // namespace engram
