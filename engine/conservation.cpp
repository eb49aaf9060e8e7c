// Conservation: lines compared as runs of words. Every window of up to
// k_window consecutive words of a line must occur in the text after: a line
// wrapped, joined or quoted elsewhere keeps its windows, a line dropped does
// not. Windows are hashed, so checking a run costs one pass over what it wrote.
#include "engine/conservation.hpp"

#include <cstdint>
#include <unordered_set>

namespace engram::engine {

namespace {

constexpr std::size_t k_window = 4;

// A byte that belongs to a word: ASCII letters and digits, and every byte of
// a multi-byte UTF-8 character (so words in any script count).
bool word_byte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

// The length of the link target at `text[at]` (`](file.md)`) when it names
// a memory file of the store, else 0. Such a target is where the line points,
// not what it says: a link mended to where a merged file went keeps the line.
std::size_t memory_link_at(std::string_view text, std::size_t at) {
  if (!text.substr(at).starts_with("](")) {
    return 0;
  }
  const auto end = text.find(')', at + 2);
  if (end == std::string_view::npos) {
    return 0;
  }
  const auto target = text.substr(at + 2, end - at - 2);
  const bool local = target.ends_with(".md") && target.find("://") == std::string_view::npos &&
                     target.find_first_of(" \t") == std::string_view::npos;
  return local ? end + 1 - at : 0;
}

// The hashes of the words of `text`, lower-cased, in order.
std::vector<std::uint64_t> words_of(std::string_view text) {
  std::vector<std::uint64_t> words;
  std::uint64_t hash = 1469598103934665603ULL;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (const auto skip = text[i] == ']' ? memory_link_at(text, i) : 0; skip != 0) {
      i += skip - 1;
      if (in_word) {
        words.push_back(hash);
        hash = 1469598103934665603ULL;
        in_word = false;
      }
      continue;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    if (word_byte(c)) {
      const auto lower = static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
      hash = (hash ^ lower) * 1099511628211ULL;
      in_word = true;
    } else if (in_word) {
      words.push_back(hash);
      hash = 1469598103934665603ULL;
      in_word = false;
    }
  }
  if (in_word) {
    words.push_back(hash);
  }
  return words;
}

// `line` cut after each `.`, `!`, `?` or `;` that a space follows.
std::vector<std::string_view> sentences_of(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    if (std::string_view(".!?;").find(line[i]) != std::string_view::npos && line[i + 1] == ' ') {
      out.push_back(line.substr(start, i + 1 - start));
      start = i + 1;
    }
  }
  out.push_back(line.substr(start));
  return out;
}

// The hash of words[at, at + n).
std::uint64_t window_hash(const std::vector<std::uint64_t>& words, std::size_t at, std::size_t n) {
  std::uint64_t hash = n;
  for (std::size_t i = at; i < at + n; ++i) {
    hash = (hash ^ words[i]) * 0x9E3779B97F4A7C15ULL + (hash >> 29);
  }
  return hash;
}

// Every window of 1 to k_window words of the texts after.
class Windows {
public:
  explicit Windows(const std::vector<std::string_view>& texts) {
    for (const auto text : texts) {
      const auto words = words_of(text);
      for (std::size_t at = 0; at < words.size(); ++at) {
        for (std::size_t n = 1; n <= k_window && at + n <= words.size(); ++n) {
          m_windows.insert(window_hash(words, at, n));
        }
      }
    }
  }

  // True when every window of each sentence of `line` is in the texts
  // after: the sentences of one line can be claims that went to different
  // files, or one claim said twice.
  bool holds(std::string_view line) const {
    for (const auto sentence : sentences_of(line)) {
      const auto words = words_of(sentence);
      if (words.empty()) {
        continue; // the space after the last sentence
      }
      const std::size_t n = std::min(words.size(), k_window);
      for (std::size_t at = 0; at + n <= words.size(); ++at) {
        if (!m_windows.contains(window_hash(words, at, n))) {
          return false;
        }
      }
    }
    return true;
  }

private:
  std::unordered_set<std::uint64_t> m_windows;
};

// The start of the bookkeeping line `engram append` writes under an item it
// diverted (cli/working_append.cpp), which the working-memory rule removes
// when the item goes back: engram's words, not the agent's.
constexpr std::string_view k_diverted_marker = "<!-- diverted from ";

// True for a line the check leaves out: a heading, engram's bookkeeping, or
// a line without a word.
bool not_compared(std::string_view line) {
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos || line[start] == '#' ||
      line.substr(start).starts_with(k_diverted_marker)) {
    return true;
  }
  for (const char ch : line) {
    if (word_byte(static_cast<unsigned char>(ch))) {
      return false;
    }
  }
  return true;
}

} // namespace

std::vector<LostLine> lost_lines(const std::vector<Before>& before,
                                 const std::vector<std::string_view>& after) {
  std::vector<LostLine> lost;
  if (before.empty()) {
    return lost;
  }
  const Windows windows(after);
  for (const auto& file : before) {
    const auto bytes = file.bytes;
    bool frontmatter = false;
    int number = 0;
    for (std::size_t at = 0; at < bytes.size();) {
      std::size_t end = bytes.find('\n', at);
      end = end == std::string_view::npos ? bytes.size() : end;
      auto line = bytes.substr(at, end - at);
      at = end + 1;
      ++number;
      if (!line.empty() && line.back() == '\r') {
        line.remove_suffix(1);
      }
      if (number == 1 && line.starts_with("\xEF\xBB\xBF")) {
        line.remove_prefix(3); // a byte-order mark before the frontmatter's fence
      }
      if (line == "---" && (number == 1 || frontmatter)) {
        frontmatter = number == 1;
        continue;
      }
      if (frontmatter || not_compared(line) || windows.holds(line)) {
        continue;
      }
      lost.push_back(LostLine{std::string(file.path), number, std::string(line)});
    }
  }
  return lost;
}

} // namespace engram::engine
