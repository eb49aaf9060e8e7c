// Merge fields: the frontmatter merged field by field (engine/merge_fields.hpp).
#include "engine/merge_fields.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::engine::merge {
namespace {

using Frontmatter = std::optional<store::Frontmatter>;

// Fields whose value only moves forward: of two changes, the later date wins.
constexpr std::array<std::string_view, 1> k_forward_dates = {"last-accessed"};

// Usage counters (engine/usage_fold.cpp): each side adds its own uses.
constexpr std::array<std::string_view, 3> k_counters = {"uses", "helpful", "unhelpful"};

// True when `name` is one of `names`.
template <std::size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// A field's value as the merge compares it, equal when the values are equal
// however they are quoted; nullopt when the field is absent.
std::optional<std::string> value_of(const Frontmatter& frontmatter, std::string_view key) {
  if (!frontmatter || !frontmatter->has(key)) {
    return std::nullopt;
  }
  if (const auto list = frontmatter->list(key)) {
    std::string out = "list";
    for (const auto& item : *list) {
      out += '\n' + item + '\0';
    }
    return out;
  }
  if (const auto scalar = frontmatter->scalar(key)) {
    return "scalar\n" + *scalar;
  }
  if (frontmatter->is_null(key)) {
    return "null";
  }
  // A mapping or anything else is compared as written, line ends aside.
  std::string lines = frontmatter->lines_of(key).value_or("");
  std::erase(lines, '\r');
  return "lines\n" + lines;
}

// A whole number, or nullopt.
std::optional<long long> number(const std::optional<std::string>& text) {
  long long value = 0;
  if (!text || text->empty()) {
    return std::nullopt;
  }
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size()) {
    return std::nullopt;
  }
  return value;
}

// Three-way merge of a list: ours' items but those theirs removed from base,
// then theirs' items that ours lacks and base did not have.
std::vector<std::string> merged_list(const std::vector<std::string>& base,
                                     const std::vector<std::string>& ours,
                                     const std::vector<std::string>& theirs) {
  const auto holds = [](const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  };
  std::vector<std::string> out;
  for (const auto& item : ours) {
    if (!holds(out, item) && !(holds(base, item) && !holds(theirs, item))) {
      out.push_back(item);
    }
  }
  for (const auto& item : theirs) {
    if (!holds(out, item) && !holds(ours, item) && !holds(base, item)) {
      out.push_back(item);
    }
  }
  return out;
}

// One merge of the frontmatter, field by field.
class FieldMerge {
public:
  FieldMerge(store::MemoryFile& merged, const store::MemoryFile* base,
             const store::MemoryFile& theirs, bool theirs_newer)
      : m_merged(merged), m_base(base), m_theirs(theirs), m_theirs_newer(theirs_newer) {}

  // Merges every field either side has.
  void run() {
    std::vector<std::string> keys;
    for (const auto* file : {static_cast<const store::MemoryFile*>(&m_merged), &m_theirs}) {
      if (file->frontmatter()) {
        for (auto& key : file->frontmatter()->keys()) {
          if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
            keys.push_back(std::move(key));
          }
        }
      }
    }
    for (const auto& key : keys) {
      merge(key);
    }
  }

private:
  // The base's frontmatter; none when there is no base, or it has none.
  const Frontmatter& base() const {
    static const Frontmatter none;
    return m_base == nullptr ? none : m_base->frontmatter();
  }

  // Merges one field, three-way when there is a base.
  void merge(const std::string& key) {
    const auto ours = value_of(m_merged.frontmatter(), key);
    const auto theirs = value_of(m_theirs.frontmatter(), key);
    if (ours == theirs) {
      return;
    }
    if (m_base != nullptr) {
      const auto base_value = value_of(base(), key);
      if (ours == base_value) {
        take_theirs(key);
        return;
      }
      if (theirs == base_value) {
        return;
      }
    }
    changed_on_both(key, ours.has_value(), theirs.has_value());
  }

  // Both sides changed the field (or there is no base to tell).
  void changed_on_both(const std::string& key, bool ours, bool theirs) {
    if (!ours || !theirs) {
      if (!ours) {
        take_theirs(key); // a change wins over a removal
      }
      return;
    }
    const auto& mine = *m_merged.frontmatter();
    const auto& other = *m_theirs.frontmatter();
    if (mine.is_list(key) && other.is_list(key)) {
      const auto base_list = base() ? base()->list(key) : std::nullopt;
      write_list(key, merged_list(base_list.value_or(std::vector<std::string>{}), *mine.list(key),
                                  *other.list(key)));
      return;
    }
    if (one_of(key, k_forward_dates)) {
      const auto a = m_merged.date(key);
      const auto b = m_theirs.date(key);
      if (a && b) {
        if (*b > *a) {
          take_theirs(key);
        }
        return;
      }
    }
    if (one_of(key, k_counters)) {
      const auto a = number(mine.scalar(key));
      const auto b = number(other.scalar(key));
      if (a && b) {
        const auto from = base() ? number(base()->scalar(key)) : std::nullopt;
        const auto sum = from ? *a + *b - *from : std::max(*a, *b);
        m_merged.frontmatter()->set_scalar(key, std::to_string(sum));
        return;
      }
    }
    if (m_theirs_newer) {
      take_theirs(key);
    }
  }

  // Sets a list of ours, unless it holds those values already.
  void write_list(const std::string& key, const std::vector<std::string>& values) {
    if (m_merged.frontmatter()->list(key) != values) {
      m_merged.frontmatter()->set_list(key, values);
    }
  }

  // The field as theirs has it: its lines as they wrote them, or gone.
  void take_theirs(const std::string& key) {
    const auto lines =
        m_theirs.frontmatter() ? m_theirs.frontmatter()->lines_of(key) : std::nullopt;
    if (!lines) {
      if (m_merged.frontmatter()) {
        m_merged.frontmatter()->remove(key);
      }
      return;
    }
    std::string text;
    for (char c : *lines) {
      if (c == '\n') {
        text += m_merged.eol();
      } else if (c != '\r') {
        text += c;
      }
    }
    m_merged.ensure_frontmatter().set_lines(key, text);
  }

  store::MemoryFile& m_merged;
  const store::MemoryFile* m_base;
  const store::MemoryFile& m_theirs;
  bool m_theirs_newer;
};

} // namespace

void merge_fields(store::MemoryFile& merged, const store::MemoryFile* base,
                  const store::MemoryFile& theirs, bool theirs_newer) {
  FieldMerge(merged, base, theirs, theirs_newer).run();
}

} // namespace engram::engine::merge
