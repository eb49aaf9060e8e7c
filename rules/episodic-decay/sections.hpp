// The Markdown sections episodic-decay files claims under: finding a
// `## <title>` section of a target, inserting into it, and an index of the
// titles a target holds, so that filing a claim under a new title does not
// read the whole target (procedural/feedback.md grows to thousands of
// sections over a run).
#pragma once

#include "../shared/knowledge.hpp"
#include "engram/rule.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

namespace engram::episodic_decay {

// Whether two texts are equal ignoring ASCII case, as knowledge::lower folds it
// (Headings keeps titles in that form: both must fold alike).
inline bool same_ignoring_case(std::string_view a, std::string_view b) {
  const auto fold = [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  };
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [&](char x, char y) { return fold(x) == fold(y); });
}

// Sections and inserting into them are shared with the other rules that
// file claims; finding one is this rule's own (it jumps from '#' to '#').
using knowledge::Section;
using knowledge::section_insertion;

// The start of the first line at or after `from` (itself a line start) that
// begins with '#', or the body's size. '#' is rare in prose, newlines are
// not: the search runs from one '#' to the next.
inline std::size_t next_hash_line(const std::string& body, std::size_t from) {
  for (auto at = body.find('#', from); at != std::string::npos; at = body.find('#', at + 1)) {
    if (at == from || body[at - 1] == '\n') {
      return at;
    }
  }
  return body.size();
}

// Calls `each(begin, line)` for every line of `text` that starts with '#',
// `line` without its end of line, in order, until `each` returns false.
template <typename Each> void for_each_hash_line(const std::string& text, Each each) {
  for (std::size_t pos = next_hash_line(text, 0); pos < text.size();) {
    const auto nl = text.find('\n', pos);
    const std::size_t next = nl == std::string::npos ? text.size() : nl + 1;
    if (!each(pos, text::without_eol(std::string_view(text).substr(pos, next - pos)))) {
      return;
    }
    pos = next < text.size() ? next_hash_line(text, next) : text.size();
  }
}

// The title of a `## <title>` heading line, as sections are found by; nullopt
// for any other line.
inline std::optional<std::string_view> level2_title(std::string_view line) {
  if (!line.starts_with("## ") && line != "##") {
    return std::nullopt;
  }
  auto title = line.substr(2);
  title.remove_prefix(std::min(title.size(), title.find_first_not_of(" \t")));
  while (!title.empty() && (title.back() == ' ' || title.back() == '#')) {
    title.remove_suffix(1);
  }
  return title;
}

// The `## <heading_text>` section of a body (the first, ignoring case).
inline std::optional<Section> find_section(const std::string& body,
                                           const std::string& heading_text) {
  std::optional<Section> found;
  for_each_hash_line(body, [&](std::size_t pos, std::string_view line) {
    const auto title = level2_title(line);
    if (found && (title || line.starts_with("# "))) {
      found->end = pos;
      return false;
    }
    if (!found && title && same_ignoring_case(*title, heading_text)) {
      found = Section{pos, body.size()};
    }
    return true;
  });
  return found;
}

// The `## ` titles of the files the rule files claims in, lower-cased, kept
// from one claim to the next while nothing but the rule's own edits changed
// the file. May name a title the file no longer has (an edit that took one
// out), never misses one it has: "not there" is certain, "there" is checked.
class Headings {
public:
  // Whether `target`, whose body is `body`, may have a `## <title>` section.
  bool may_have(const StoreView& store, const std::string& target, const std::string& body,
                std::string_view title) {
    auto& known = current(store, target, body);
    return known.titles.contains(knowledge::lower(title));
  }

  // After the rule set `target`'s body, having added `added` to it.
  void wrote(const StoreView& store, const std::string& target, const std::string& added) {
    const auto it = m_files.find(target);
    if (it == m_files.end()) {
      return; // read whole when next asked
    }
    add_titles(it->second, added);
    it->second.revision = store.revision();
  }

  void clear() { m_files.clear(); }

private:
  struct Known {
    std::uint64_t revision = 0;             // the model's revision the titles are of
    std::unordered_set<std::string> titles; // lower-cased
  };

  Known& current(const StoreView& store, const std::string& target, const std::string& body) {
    auto [it, fresh] = m_files.try_emplace(target);
    bool valid = !fresh;
    if (valid) {
      const auto changed = store.changed_since(it->second.revision);
      valid = changed && std::find(changed->begin(), changed->end(), target) == changed->end();
    }
    if (!valid) {
      it->second.titles.clear();
      add_titles(it->second, body);
      it->second.revision = store.revision();
    }
    return it->second;
  }

  static void add_titles(Known& known, const std::string& text) {
    for_each_hash_line(text, [&](std::size_t, std::string_view line) {
      if (const auto title = level2_title(line)) {
        known.titles.insert(knowledge::lower(*title));
      }
      return true;
    });
  }

  std::map<std::string, Known> m_files;
};

} // namespace engram::episodic_decay
