// The Markdown sections episodic-decay files claims under: an index of the
// `## <title>`s a target holds, so that filing a claim under a new title does
// not read the whole target (procedural/feedback.md grows to thousands of
// sections over a run). Finding a section and inserting into it are
// knowledge.hpp's, shared with dedupe.
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

// Sections, finding them and inserting into them are shared with the
// other rules that file claims.
using knowledge::find_section;
using knowledge::for_each_hash_line;
using knowledge::level2_title;
using knowledge::Section;
using knowledge::section_insertion;

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
