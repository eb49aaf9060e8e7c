// Building the recall index's records from `.index.json`: each entry
// numbered, its tags, triggers and summary words reduced to keywords, and
// the E and W lines written. The stemming here is the cost the index exists
// to pay once; reading the index back is recall_index.cpp's.
#include "claims/words.hpp"
#include "recall/index_entries.hpp"
#include "recall/keywords.hpp"
#include "recall/recall_index.hpp"
#include "recall/recall_index_format.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <fmt/format.h>
#include <map>
#include <set>
#include <unordered_map>

namespace engram::recall {
namespace {

// One entry as the recall index records it.
struct Built {
  std::string path;
  int salience = 2;
  bool episodic = false;
  std::string created;
  std::vector<std::string> related;
};

// Each keyword's postings, in entry order: entries are numbered as they
// are read, so a posting is appended, or merged with the last one when the
// same entry has the keyword twice. Sorted by keyword only when written.
struct Postings {
  std::unordered_map<std::string, std::uint32_t> word_ids;
  std::vector<std::vector<std::pair<std::uint32_t, unsigned>>> lists;

  // Posts `word` for entry `number`, with what it matched there.
  void add(const std::string& word, std::uint32_t number, unsigned bits) {
    const auto [it, added] = word_ids.try_emplace(word, static_cast<std::uint32_t>(lists.size()));
    if (added) {
      lists.emplace_back();
    }
    auto& list = lists[it->second];
    if (!list.empty() && list.back().first == number) {
      list.back().second |= bits;
    } else {
      list.emplace_back(number, bits);
    }
  }
};

// The keywords of tags and of summary words, each made once: stemming is most
// of the cost, and the same words recur across entries.
struct KeywordCaches {
  std::unordered_map<std::string, std::vector<std::string>> tags;
  std::unordered_map<std::string, std::vector<std::string>> texts;
};

// The keywords `make` gives `key`, made on the first call for it and kept in `cache`.
template <typename Make>
const std::vector<std::string>&
cached(std::unordered_map<std::string, std::vector<std::string>>& cache, const std::string& key,
       Make make) {
  auto it = cache.find(key);
  if (it == cache.end()) {
    it = cache.emplace(key, make(key)).first;
  }
  return it->second;
}

// Posts the keywords of an entry's tags, triggers and summary as entry `number`'s.
void post_keywords(const IndexEntry& entry, std::uint32_t number, KeywordCaches& caches,
                   Postings& postings) {
  for (const auto& tag : entry.tags) {
    for (const auto& word : cached(caches.tags, tag, tag_keywords)) {
      postings.add(word, number, k_match_tag);
    }
  }
  for (const auto& trigger : entry.trigger) {
    for (const auto& word : cached(caches.tags, trigger, tag_keywords)) {
      postings.add(word, number, k_match_trigger);
    }
  }
  for (const auto& word : claims::words_of(entry.summary)) {
    for (const auto& keyword : cached(caches.texts, word, keywords_of)) {
      postings.add(keyword, number, k_match_summary);
    }
  }
}

// The entries recall finds, numbered in order (their numbers by path go to
// `numbers`), with their keywords posted; takes the strings of `entries`.
std::vector<Built> numbered_entries(std::vector<IndexEntry>& entries, const store::Layout& layout,
                                    std::map<std::string, std::uint32_t>& numbers,
                                    Postings& postings) {
  // The agent loads these every session already (its own core files too).
  std::set<std::string> loaded_whole = {layout.working, layout.core, layout.memory_index,
                                        layout.index_json};
  loaded_whole.insert(layout.agent_core.begin(), layout.agent_core.end());
  std::vector<Built> built;
  KeywordCaches caches;
  for (auto& entry : entries) {
    Built b;
    b.path = std::move(entry.path);
    if (b.path.empty() || b.path.find_first_of("\t\n\r") != std::string::npos ||
        loaded_whole.contains(b.path) || numbers.contains(b.path) || entry.status == "superseded") {
      continue;
    }
    b.salience = entry.salience == "high" ? 3 : entry.salience == "low" ? 1 : 2;
    b.episodic = entry.type == "episodic" ||
                 (entry.type.empty() && b.path.starts_with(layout.episodic + "/"));
    b.created = Date::parse(entry.created) ? std::move(entry.created) : "-";
    b.related = std::move(entry.related);
    const auto number = static_cast<std::uint32_t>(built.size());
    numbers.emplace(b.path, number);
    post_keywords(entry, number, caches, postings);
    built.push_back(std::move(b));
  }
  return built;
}

// Appends an E line for each entry: its path, salience, whether it is
// episodic, its date and the numbers of the entries it relates to.
void append_entry_lines(std::string& out, const std::vector<Built>& built,
                        const std::map<std::string, std::uint32_t>& numbers) {
  for (const auto& b : built) {
    std::string related;
    const auto folder = b.path.substr(0, b.path.rfind('/') + 1);
    for (const auto& link : b.related) {
      // `related` names a path from the store's root, or from the file's folder,
      // with or without `.md`.
      for (const auto& candidate : {link, link + ".md", folder + link, folder + link + ".md"}) {
        if (const auto it = numbers.find(candidate); it != numbers.end() && it->first != b.path) {
          related += (related.empty() ? "" : ",") + std::to_string(it->second);
          break;
        }
      }
    }
    out += fmt::format("E\t{}\t{}\t{}\t{}\t{}\n", b.path, b.salience, b.episodic ? 1 : 0, b.created,
                       related.empty() ? "-" : related);
  }
}

// Appends a W line for each keyword, in keyword order: its postings, each an
// entry's number and what the keyword matched there.
void append_word_lines(std::string& out, const Postings& postings) {
  std::vector<const std::pair<const std::string, std::uint32_t>*> sorted;
  sorted.reserve(postings.word_ids.size());
  for (const auto& word : postings.word_ids) {
    if (word.first.find_first_of("\t\n\r") == std::string::npos) {
      sorted.push_back(&word);
    }
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  std::array<char, 16> digits{};
  const auto append_number = [&](unsigned long value) {
    const auto [end, error] = std::to_chars(digits.data(), digits.data() + digits.size(), value);
    out.append(digits.data(), end);
  };
  for (const auto* word : sorted) {
    out += "W\t";
    out += word->first;
    out += '\t';
    bool first = true;
    for (const auto& [number, bits] : postings.lists[word->second]) {
      if (!first) {
        out += ',';
      }
      append_number(number);
      out += ':';
      append_number(bits);
      first = false;
    }
    out += '\n';
  }
}
} // namespace

std::string RecallIndex::build(std::string_view index_json, const SourceStamp& stamp,
                               const store::Layout& layout) {
  return stamped(stamp, records(index_json, layout));
}

std::string RecallIndex::stamped(const SourceStamp& stamp, std::string_view records) {
  auto out =
      fmt::format("{}{}\t{}\t{}\n", detail::k_magic, stamp.size, stamp.mtime_ns, stamp.inode);
  out += records;
  return out;
}

std::string RecallIndex::records(std::string_view index_json, const store::Layout& layout) {
  auto entries = read_index_entries(index_json, layout.index_json);
  std::map<std::string, std::uint32_t> numbers;
  Postings postings;
  const auto built = numbered_entries(entries, layout, numbers, postings);
  std::string out;
  append_entry_lines(out, built, numbers);
  append_word_lines(out, postings);
  return out;
}

} // namespace engram::recall
