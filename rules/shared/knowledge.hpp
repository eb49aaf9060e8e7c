// Knowledge: what the knowledge-quality rules (dedupe, contradictions,
// stale-refs) share — the significant words of a memory, which of two files is
// the newer, the guards that keep a memory out of automatic edits, and the
// Markdown edits that keep superseded text beside what replaced it. Header-only
// and built into each plugin, so a plugin still links nothing of engram's.
#pragma once

#include "claim_place.hpp"
#include "engram/markers.hpp"
#include "engram/rule.hpp"
#include "engram/section_edits.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace engram::knowledge {

// The SDK's text, marker and section helpers, by the names these rules have always used.
using markers::as_entry;
using markers::entry_with_markers;
using markers::k_marker_open;
using markers::MarkedClaim;
using markers::markers_after;
using markers::quote_for_marker;
using markers::split_markers;
using markers::superseded_marker;
using sections::appended;
using sections::appendix;
using sections::insert_in_section;
using sections::Section;
using sections::section_insertion;
using sections::Splice;
using text::lower;
using text::one_line;
using text::without_comments;

// The dream seed's stopwords: words that say nothing about a memory's subject.
inline constexpr std::array<std::string_view, 52> k_stopwords = {
    "the",    "a",     "an",    "is",   "are",   "was", "were", "be",      "been",
    "have",   "has",   "had",   "do",   "does",  "did", "will", "would",   "could",
    "should", "may",   "might", "can",  "shall", "to",  "of",   "in",      "for",
    "on",     "with",  "at",    "by",   "from",  "as",  "into", "through", "during",
    "before", "after", "this",  "that", "it",    "not", "no",   "but",     "or",
    "and",    "if",    "then",  "than", "so",    "its", "their"};

// True for a stopword.
inline bool is_stopword(std::string_view word) {
  if (word.size() > 7) {
    return false; // no stopword is longer ("through", "before", "during")
  }
  return std::find(k_stopwords.begin(), k_stopwords.end(), word) != k_stopwords.end();
}

// Calls `take(word)` for each raw significant word of a body: lower-cased runs
// of letters and digits (bytes of other scripts count as letters), longer than
// two characters, not stopwords, comments left out. Duplicates are kept. The
// word is a view of a buffer that is reused: copy it to keep it.
template <typename Take> void for_each_significant_word(std::string_view body, Take&& take) {
  const std::string text = without_comments(body);
  std::string word;
  const auto flush = [&] {
    if (word.size() > 2 && !is_stopword(word)) {
      take(std::string_view(word));
    }
    word.clear();
  };
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80) {
      word += ch;
    } else if (c >= 'A' && c <= 'Z') {
      word += static_cast<char>(c - 'A' + 'a');
    } else {
      flush();
    }
  }
  flush();
}

// The raw significant words of a body (see for_each_significant_word).
inline std::vector<std::string> raw_significant_words(std::string_view body) {
  std::vector<std::string> words;
  for_each_significant_word(body, [&](std::string_view word) { words.emplace_back(word); });
  return words;
}

// The share of the smaller set that both sets hold (0 when either is empty);
// both are sorted and unique.
template <typename T> double overlap(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.empty() || b.empty()) {
    return 0.0;
  }
  return static_cast<double>(text::shared_count(a, b)) /
         static_cast<double>(std::min(a.size(), b.size()));
}

// How old a file is, for deciding which of two is the newer: its `created`
// date, then its modification time, then its path.
struct Age {
  std::optional<Date> created;          // the `created` field, when a date
  std::optional<std::int64_t> modified; // seconds since the epoch; nullopt: made in this run
  std::string path;                     // the last tie-breaker, so the answer is stable

  // Reads a file's age from the store.
  static Age of(const StoreView& store, const std::string& path) {
    return Age{store.date(path, "created"), store.modified(path), path};
  }

  // The day the file was made: `created`, else its modification day; nullopt when neither.
  std::optional<Date> day() const {
    if (created) {
      return created;
    }
    if (modified) {
      return Date::from_days(*modified / 86'400);
    }
    return std::nullopt;
  }
};

// True when `a` is newer than `b`: a later `created`; equal or missing, a later
// modification time (a file made in this run is the newest); then the later path.
inline bool newer(const Age& a, const Age& b) {
  if (a.created && b.created && *a.created != *b.created) {
    return *a.created > *b.created;
  }
  const std::int64_t am = a.modified.value_or(INT64_MAX);
  const std::int64_t bm = b.modified.value_or(INT64_MAX);
  if (am != bm) {
    return am > bm;
  }
  return a.path > b.path;
}

// A setting of the rule's table as a number, or `fallback`.
inline double real_setting(const StoreView& store, std::string_view key, double fallback) {
  const auto value = store.setting(key);
  if (!value) {
    return fallback;
  }
  if (const auto* d = std::get_if<double>(&*value)) {
    return *d;
  }
  if (const auto* i = std::get_if<std::int64_t>(&*value)) {
    return static_cast<double>(*i);
  }
  return fallback;
}

// A setting of the rule's table as a whole number, or `fallback`.
inline std::int64_t int_setting(const StoreView& store, std::string_view key,
                                std::int64_t fallback) {
  const auto value = store.setting(key);
  if (!value) {
    return fallback;
  }
  if (const auto* i = std::get_if<std::int64_t>(&*value)) {
    return *i;
  }
  if (const auto* d = std::get_if<double>(&*value)) {
    return static_cast<std::int64_t>(*d);
  }
  return fallback;
}

// A setting of the rule's table as text, or "".
inline std::string text_setting(const StoreView& store, std::string_view key) {
  const auto value = store.setting(key);
  if (!value) {
    return {};
  }
  if (const auto* s = std::get_if<std::string>(&*value)) {
    return *s;
  }
  return {};
}

// True when `word` appears in `text` (lower case) with no letter on either side.
inline bool has_word(std::string_view text, std::string_view word) {
  const auto letter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '\'';
  };
  for (auto at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool start = at == 0 || !letter(text[at - 1]);
    const bool end = at + word.size() >= text.size() || !letter(text[at + word.size()]);
    if (start && end) {
      return true;
    }
  }
  return false;
}

// Why a file must never be changed by an automatic merge or resolution, or ""
// when it may be: `critical: true`, or a confirmed rule that says never / do not.
inline std::string protected_reason(const StoreView& store, const std::string& path) {
  if (lower(store.field(path, "critical").value_or("")) == "true") {
    return "marked critical";
  }
  if (lower(store.field(path, "status").value_or("")) == "confirmed") {
    const auto body = lower(without_comments(store.body(path)));
    for (std::string_view word : {"never", "do not", "don't", "must not"}) {
      if (has_word(body, word)) {
        return "a confirmed rule that says \"" + std::string(word) + "\"";
      }
    }
  }
  return {};
}

// True for a claim that is a Markdown list item.
inline bool is_item(std::string_view text) {
  return text::starts_list_item(text);
}

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

// The title of a `## <title>` heading line (a bare `##` is an empty one, as
// in Markdown), without the closing `#`s; nullopt for any other line.
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

// The first `## <title>` section of a body (title compared ignoring ASCII
// case), to the next level-1 or level-2 heading line. Headings are read line
// by line, as the rules have always read them (a `#` line in a fence counts).
inline std::optional<Section> find_section(const std::string& body, const std::string& title) {
  const auto wanted = lower(title);
  std::optional<Section> found;
  for_each_hash_line(body, [&](std::size_t pos, std::string_view line) {
    const auto heading = level2_title(line);
    if (found && (heading || line.starts_with("# "))) {
      found->end = pos;
      return false;
    }
    if (!found && heading && heading->size() == wanted.size() && lower(*heading) == wanted) {
      found = Section{pos, body.size()};
    }
    return true;
  });
  return found;
}

// Every HTML comment of `text`, in order; an unclosed `<!--` is text, not a comment.
inline std::vector<std::string> comments_of(std::string_view text) {
  std::vector<std::string> out;
  for (auto open = text.find("<!--"); open != std::string_view::npos;
       open = text.find("<!--", open)) {
    const auto close = text.find("-->", open + 4);
    if (close == std::string_view::npos) {
      break;
    }
    out.emplace_back(text.substr(open, close + 3 - open));
    open = close + 3;
  }
  return out;
}

// `body` with `markers` put right after the claim `beside` (continuation lines
// of a list item, else a block after its paragraph; at the end when the claim
// is not found), leaving out markers the body already holds, so a history is
// never written twice. `beside` becomes the claim's new text.
inline std::string with_markers_beside(const std::string& body, std::string& beside,
                                       const std::vector<std::string>& markers) {
  std::vector<std::string> fresh;
  for (const auto& marker : markers) {
    if (body.find(marker) == std::string::npos &&
        std::find(fresh.begin(), fresh.end(), marker) == fresh.end()) {
      fresh.push_back(marker);
    }
  }
  if (fresh.empty()) {
    return body;
  }
  const auto at = beside.empty() ? std::string::npos : find_claim(body, beside);
  if (at != std::string::npos && is_item(beside)) {
    const auto added = markers_after(beside, fresh);
    const std::size_t after = at + beside.size();
    beside += added;
    return body.substr(0, after) + added + body.substr(after);
  }
  std::string block;
  for (const auto& marker : fresh) {
    block += (block.empty() ? "" : "\n") + marker;
  }
  const auto blank = at == std::string::npos ? at : body.find("\n\n", at + beside.size());
  if (blank == std::string::npos) {
    return appended(body, block, true);
  }
  return body.substr(0, blank + 1) + "\n" + block + "\n" + body.substr(blank + 1);
}

} // namespace engram::knowledge
