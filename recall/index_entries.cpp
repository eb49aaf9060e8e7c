// Reading `.index.json`'s entries with nlohmann's SAX interface: a handler
// that keeps only the fields of IndexEntry and skips every other value.
#include "recall/index_entries.hpp"

#include "base/error.hpp"

#include <array>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

namespace engram::recall {

namespace {

using json = nlohmann::json;

// Where the reader is: depth counts the open objects and arrays, so the
// index object is at 1, the "entries" list at 2, an entry at 3, and one of
// its lists at 4; anything deeper is skipped whole.
class EntriesReader final : public nlohmann::json_sax<json> {
public:
  std::vector<IndexEntry> entries;
  bool saw_entries = false; // the index object has an "entries" list
  bool top_is_object = false;
  std::string error; // the parser's message, when it failed

  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool binary(binary_t&) override { return scalar(); }

  bool string(string_t& value) override {
    if (m_depth == 3 && m_text != nullptr) {
      *m_text = std::move(value);
      m_text = nullptr;
      m_list = nullptr;
    } else if (m_depth == 4 && m_list_open != nullptr) {
      m_list_open->push_back(std::move(value));
    } else {
      return scalar();
    }
    return true;
  }

  bool start_object(std::size_t) override {
    ++m_depth;
    if (m_depth == 1) {
      top_is_object = true;
    } else if (m_depth == 3 && m_in_entries) {
      entries.emplace_back();
      m_entry = &entries.back();
    }
    return true;
  }

  bool end_object() override {
    if (m_depth == 3) {
      m_entry = nullptr;
    }
    closed();
    return true;
  }

  bool start_array(std::size_t) override {
    ++m_depth;
    if (m_depth == 2 && m_entries_key) {
      // A second "entries" key replaces the first, as in a parsed document.
      entries.clear();
      saw_entries = true;
      m_in_entries = true;
    } else if (m_depth == 4 && m_list != nullptr) {
      m_list_open = m_list; // emptied when its key was read
    }
    m_entries_key = false;
    return true;
  }

  bool end_array() override {
    if (m_depth == 2) {
      m_in_entries = false;
    } else if (m_depth == 4) {
      m_list_open = nullptr;
    }
    closed();
    return true;
  }

  bool key(string_t& name) override {
    if (m_depth == 1) {
      m_entries_key = name == "entries";
      if (m_entries_key) {
        // An "entries" that is not a list clears one seen before it.
        saw_entries = false;
        entries.clear();
      }
    } else if (m_depth == 3 && m_entry != nullptr) {
      m_text = text_field(name);
      m_list = list_field(name);
      // The key's value replaces what an earlier one gave: "" or no items
      // unless it turns out to be a string or a list of them.
      if (m_text != nullptr) {
        m_text->clear();
      }
      if (m_list != nullptr) {
        m_list->clear();
      }
    }
    return true;
  }

  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& failure) override {
    error = failure.what();
    return false;
  }

private:
  int m_depth = 0;
  bool m_entries_key = false;                 // the value coming is the index's "entries"
  bool m_in_entries = false;                  // inside the "entries" list
  IndexEntry* m_entry = nullptr;              // the entry being read
  std::string* m_text = nullptr;              // the text field the next value of this entry sets
  std::vector<std::string>* m_list = nullptr; // the list field the next value of this entry sets
  std::vector<std::string>* m_list_open = nullptr; // the list whose items are being read

  // A scalar where no field takes it: it ends a pending key and is skipped.
  bool scalar() {
    if (m_depth == 1) {
      m_entries_key = false;
    } else if (m_depth == 3) {
      m_text = nullptr;
      m_list = nullptr;
    }
    return true;
  }

  // A container closed: back in an entry, the next value needs a key first
  // (so an object or a list under a text field, or an object under a list
  // field, leaves the field empty: nothing inside them reaches depth 3 or a
  // list being read).
  void closed() {
    --m_depth;
    if (m_depth == 1) {
      m_entries_key = false;
    }
    if (m_depth == 3) {
      m_text = nullptr;
      m_list = nullptr;
    }
  }

  // The field of the entry being read that a key names, or nullptr.
  template <typename Field, std::size_t N>
  Field* field(std::string_view name,
               const std::array<std::pair<std::string_view, Field IndexEntry::*>, N>& table) const {
    for (const auto& [key, member] : table) {
      if (key == name) {
        return &(m_entry->*member);
      }
    }
    return nullptr;
  }
  std::string* text_field(std::string_view name) const { return field(name, k_text_fields); }
  std::vector<std::string>* list_field(std::string_view name) const {
    return field(name, k_list_fields);
  }

  // The keys IndexEntry keeps, and where.
  static constexpr std::array<std::pair<std::string_view, std::string IndexEntry::*>, 6>
      k_text_fields{{{"path", &IndexEntry::path},
                     {"type", &IndexEntry::type},
                     {"salience", &IndexEntry::salience},
                     {"status", &IndexEntry::status},
                     {"created", &IndexEntry::created},
                     {"summary", &IndexEntry::summary}}};
  static constexpr std::array<std::pair<std::string_view, std::vector<std::string> IndexEntry::*>,
                              3>
      k_list_fields{{{"tags", &IndexEntry::tags},
                     {"trigger", &IndexEntry::trigger},
                     {"related", &IndexEntry::related}}};
};

} // namespace

std::vector<IndexEntry> read_index_entries(std::string_view text, std::string_view name) {
  EntriesReader reader;
  if (!json::sax_parse(text, &reader) || !reader.error.empty()) {
    throw Error("{}: not JSON ({})", name, reader.error.empty() ? "unreadable" : reader.error);
  }
  if (!reader.top_is_object || !reader.saw_entries) {
    throw Error("{}: has no \"entries\" list", name);
  }
  return std::move(reader.entries);
}

} // namespace engram::recall
