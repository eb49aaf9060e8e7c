// Word splitting for keyword rules. Matching whole words (not substrings) is
// what keeps "never" out of "nevertheless" and "must" out of "mustard".
#include "claims/words.hpp"

#include <algorithm>
#include <array>

namespace engram::claims {
namespace {

// U+2019 RIGHT SINGLE QUOTATION MARK, the apostrophe word processors type.
constexpr std::string_view k_curly_apostrophe = "\xE2\x80\x99";

// Whether a byte belongs to a word.
bool is_word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Whether `line` (leading spaces skipped) opens or closes a code fence.
bool is_fence(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t' || line.front() == '>')) {
    line.remove_prefix(1);
  }
  return line.starts_with("```") || line.starts_with("~~~");
}

} // namespace

std::vector<std::string> words_of(std::string_view text, std::size_t most) {
  std::vector<std::string> words;
  constexpr std::size_t k_bytes_per_word = 6; // about, in English prose: grown rarely
  words.reserve(std::min(most, text.size() / k_bytes_per_word + 1));
  std::string word;
  auto flush = [&] {
    while (!word.empty() && word.back() == '\'') {
      word.pop_back();
    }
    if (!word.empty()) {
      words.push_back(std::move(word));
    }
    word.clear();
  };
  for (std::size_t i = 0; i < text.size() && words.size() < most; ++i) {
    const char c = text[i];
    // The curly apostrophe's first byte is tested first: this runs for every byte classified.
    const bool curly = c == k_curly_apostrophe[0] && text.substr(i).starts_with(k_curly_apostrophe);
    if (c == '\'' || curly) {
      // An apostrophe belongs to a word only between letters: don't, it's.
      if (!word.empty()) {
        word += '\'';
      }
      i += curly ? k_curly_apostrophe.size() - 1 : 0;
    } else if (is_word_byte(c)) {
      word += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    } else {
      flush();
    }
  }
  if (words.size() < most) {
    flush();
  }
  return words;
}

namespace {

// Whether `phrase` is plain lower-case words joined by single spaces, whose
// words_of are its space-separated parts.
bool is_plain_phrase(std::string_view phrase) {
  if (phrase.empty() || phrase.front() == ' ' || phrase.back() == ' ') {
    return false;
  }
  // One pass: asked for every keyword of a table, for every claim classified.
  char previous = 'a';
  for (const char c : phrase) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ' ';
    if (!plain || (c == ' ' && previous == ' ')) {
      return false;
    }
    previous = c;
  }
  return true;
}

// Whether the words from `at` on start with plain `phrase`.
bool starts_with_plain(const std::vector<std::string>& words, std::size_t at,
                       std::string_view phrase) {
  while (true) {
    const auto space = phrase.find(' ');
    if (at >= words.size() || words[at] != phrase.substr(0, space)) {
      return false;
    }
    if (space == std::string_view::npos) {
      return true;
    }
    phrase.remove_prefix(space + 1);
    ++at;
  }
}

} // namespace

std::size_t find_phrase(const std::vector<std::string>& words, std::string_view phrase) {
  if (is_plain_phrase(phrase)) {
    // The keyword tables are plain phrases: matching them needs no
    // allocation, and a position whose word is not the phrase's first needs
    // one comparison.
    const auto first = phrase.substr(0, phrase.find(' '));
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (words[i] == first && starts_with_plain(words, i, phrase)) {
        return i;
      }
    }
    return words.size();
  }
  const auto wanted = words_of(phrase);
  if (wanted.empty() || wanted.size() > words.size()) {
    return words.size();
  }
  for (std::size_t i = 0; i + wanted.size() <= words.size(); ++i) {
    bool match = true;
    for (std::size_t j = 0; j < wanted.size() && match; ++j) {
      match = words[i + j] == wanted[j];
    }
    if (match) {
      return i;
    }
  }
  return words.size();
}

bool has_phrase(const std::vector<std::string>& words, std::string_view phrase) {
  return find_phrase(words, phrase) < words.size();
}

PhraseSet::PhraseSet(std::span<const std::string_view> phrases) {
  for (const auto phrase : phrases) {
    // The words find_phrase matches: a plain phrase's space-separated parts, else its words_of.
    std::vector<std::string> wanted;
    if (is_plain_phrase(phrase)) {
      for (std::size_t at = 0; at <= phrase.size();) {
        const auto space = std::min(phrase.find(' ', at), phrase.size());
        wanted.emplace_back(phrase.substr(at, space - at));
        at = space + 1;
      }
    } else {
      wanted = words_of(phrase);
    }
    if (!wanted.empty()) {
      auto& list = m_by_first[wanted.front()];
      list.push_back(std::move(wanted));
    }
  }
}

bool PhraseSet::found_in(const std::vector<std::string>& words) const {
  for (std::size_t i = 0; i < words.size(); ++i) {
    const auto it = m_by_first.find(std::string_view(words[i]));
    if (it == m_by_first.end()) {
      continue;
    }
    for (const auto& wanted : it->second) {
      if (i + wanted.size() <= words.size() &&
          std::equal(wanted.begin() + 1, wanted.end(), words.begin() + static_cast<long>(i) + 1)) {
        return true;
      }
    }
  }
  return false;
}

std::string without_code_blocks(std::string_view text) {
  std::string out;
  bool in_fence = false;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    const auto line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    if (is_fence(line)) {
      in_fence = !in_fence;
      continue;
    }
    if (!in_fence) {
      out.append(line);
      out += '\n';
    }
  }
  return out;
}

std::string without_code(std::string_view text) {
  const std::string prose = without_code_blocks(text);
  std::string out;
  out.reserve(prose.size());
  for (std::size_t i = 0; i < prose.size();) {
    if (prose[i] != '`') {
      // The bytes up to the next backtick, at once.
      const auto tick = std::min(prose.find('`', i), prose.size());
      out.append(prose, i, tick - i);
      i = tick;
      continue;
    }
    // A run of n backticks opens a span that the next run of exactly n closes.
    std::size_t run = 0;
    while (i + run < prose.size() && prose[i + run] == '`') {
      ++run;
    }
    auto close = std::string::npos;
    for (auto j = prose.find('`', i + run); j != std::string::npos; j = prose.find('`', j)) {
      std::size_t other = 0;
      while (j + other < prose.size() && prose[j + other] == '`') {
        ++other;
      }
      if (other == run) {
        close = j;
        break;
      }
      j += other;
    }
    if (close == std::string::npos) {
      out.append(prose, i, run);
      i += run;
      continue;
    }
    out += ' ';
    i = close + run;
  }
  return out;
}

std::string american_spelling(const std::string& word) {
  constexpr std::size_t k_shortest = 6;
  if (word.size() < k_shortest) {
    return word;
  }
  for (const std::string_view ending : {"ise", "ised", "ises", "ising", "isation", "isations"}) {
    if (word.ends_with(ending)) {
      return word.substr(0, word.size() - ending.size()) + "iz" + std::string(ending.substr(2));
    }
  }
  // "our" inside a word before an ending of its own: "favourite",
  // "neighbourhood", "honourable", "colours".
  constexpr std::array<std::string_view, 12> k_after_our = {
      "", "s", "ed", "ing", "ite", "ites", "hood", "hoods", "able", "ful", "er", "ers"};
  const auto our = word.rfind("our");
  if (our != std::string::npos && our > 0 &&
      std::find(k_after_our.begin(), k_after_our.end(), std::string_view(word).substr(our + 3)) !=
          k_after_our.end()) {
    return word.substr(0, our) + "or" + word.substr(our + 3);
  }
  return word;
}

} // namespace engram::claims
