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
#include <vector>

namespace engram::episodic_decay {

// Sections, finding them and inserting into them are shared with the
// other rules that file claims.
using knowledge::find_section;
using knowledge::for_each_hash_line;
using knowledge::level2_title;
using knowledge::Section;
using knowledge::section_insertion;

// A heading's word as titles are matched: stemmed as tags are, without a
// plural "s" the stemmer keeps ("SLAs" is "SLA").
inline std::string title_stem(const StoreView& store, const std::string& word) {
  auto stem = store.canonical_tag(word);
  if (stem.size() > 3 && stem.ends_with('s') && !stem.ends_with("ss") && !stem.ends_with("us") &&
      !stem.ends_with("is")) {
    stem.pop_back();
  }
  return stem;
}

// The words of a heading as titles are matched, in order: lower-cased,
// stemmed, stopwords left out; a hyphenated word of short parts is one word
// ("Wi-Fi" is wifi, so "wifi dead zones" finds it), of long ones its parts.
inline std::vector<std::string> title_words(const StoreView& store, std::string_view title) {
  std::vector<std::string> out;
  std::vector<std::string> parts; // the current hyphenated run
  const auto flush = [&] {
    const bool short_parts =
        parts.size() > 1 &&
        std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.size() < 3; });
    if (short_parts) {
      std::string joined;
      for (const auto& part : parts) {
        joined += part;
      }
      parts = {joined};
    }
    for (const auto& word : parts) {
      if (word.size() > 1 && !knowledge::is_stopword(word)) {
        out.push_back(title_stem(store, word));
      }
    }
    parts.clear();
  };
  std::string word;
  for (const char c : knowledge::lower(title)) {
    const bool letter =
        (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || static_cast<unsigned char>(c) >= 0x80;
    if (letter) {
      word += c;
      continue;
    }
    if (!word.empty()) {
      parts.push_back(std::move(word));
      word.clear();
    }
    if (c != '-') {
      flush();
    }
  }
  if (!word.empty()) {
    parts.push_back(std::move(word));
  }
  flush();
  return out;
}

// The `## ` section of `body` whose title the claim's headings name: the
// innermost heading first; a title matches when at least half its words are
// the heading's (most shared wins; ties, the one matching a later word). nullopt when none does.
inline std::optional<Section> matching_section(const StoreView& store, const std::string& body,
                                               const std::string& context) {
  if (context.empty()) {
    return std::nullopt;
  }
  std::vector<std::string> headings; // outermost first, then reversed
  for (std::size_t start = 0;;) {
    const auto sep = context.find(" > ", start);
    headings.push_back(context.substr(start, sep == std::string::npos ? sep : sep - start));
    if (sep == std::string::npos) {
      break;
    }
    start = sep + 3;
  }
  std::reverse(headings.begin(), headings.end());
  for (const auto& heading : headings) {
    const auto wanted = title_words(store, heading);
    std::optional<std::string> best;
    std::pair<std::size_t, std::size_t> best_score{0, 0}; // words shared, then how late the last is
    for_each_hash_line(body, [&](std::size_t, std::string_view line) {
      const auto title = level2_title(line);
      if (!title) {
        return true;
      }
      auto words = title_words(store, *title);
      std::sort(words.begin(), words.end());
      words.erase(std::unique(words.begin(), words.end()), words.end());
      std::pair<std::size_t, std::size_t> score{0, 0};
      for (std::size_t at = 0; at < wanted.size(); ++at) {
        if (std::binary_search(words.begin(), words.end(), wanted[at])) {
          score = {score.first + 1, at + 1};
        }
      }
      // The last word of a heading is its head ("Car insurance renewal" is
      // about insurance): between equal shares, the later match wins.
      if (score.first > 0 && 2 * score.first >= words.size() && score > best_score) {
        best = std::string(*title);
        best_score = score;
      }
      return true;
    });
    if (best) {
      return find_section(body, *best);
    }
  }
  return std::nullopt;
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
