// Canonical tags. Tags are NFKC-case-folded with ICU, split into words on
// separators, and each word stemmed with Snowball's English stemmer.
#include "store/tags.hpp"

#include "base/text_hash.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <libstemmer.h>
#include <memory>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>
#include <vector>

namespace engram::store {
namespace {

// A Snowball stemmer per thread: sb_stemmer objects are not thread-safe.
class Stemmer {
public:
  Stemmer() : m_stemmer(sb_stemmer_new("english", "UTF_8")) {}
  ~Stemmer() { sb_stemmer_delete(m_stemmer); }
  Stemmer(const Stemmer&) = delete;
  Stemmer& operator=(const Stemmer&) = delete;

  // The stem of one case-folded word.
  std::string stem(const std::string& word) {
    if (m_stemmer == nullptr) {
      return word;
    }
    const auto* out = sb_stemmer_stem(m_stemmer, reinterpret_cast<const sb_symbol*>(word.data()),
                                      static_cast<int>(word.size()));
    if (out == nullptr) {
      return word;
    }
    return {reinterpret_cast<const char*>(out),
            static_cast<std::size_t>(sb_stemmer_length(m_stemmer))};
  }

private:
  sb_stemmer* m_stemmer;
};

Stemmer& thread_stemmer() {
  thread_local Stemmer stemmer;
  return stemmer;
}

std::string fold(std::string_view text) {
  if (std::all_of(text.begin(), text.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    // NFKC case folding leaves ASCII as it is but for case; ICU's conversions
    // would cost more than the stemming.
    std::string out(text);
    for (auto& c : out) {
      c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return out;
  }
  UErrorCode status = U_ZERO_ERROR;
  const auto* normalizer = icu::Normalizer2::getNFKCCasefoldInstance(status);
  auto unicode = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  std::string out;
  if (U_FAILURE(status)) {
    unicode.foldCase().toUTF8String(out);
    return out;
  }
  normalizer->normalize(unicode, status).toUTF8String(out);
  return out;
}

bool is_separator(char c) {
  return c == '-' || c == '_' || c == ' ' || c == '\t' || c == '/' || c == '.';
}

// The canonical form of one word, worked out. Snowball leaves agent nouns
// alone ("scraper" stays, "scraping" becomes "scrape"), so a word ending in
// -er is also tried as its -ing form; tags like `scraper`/`scraping` and
// `parser`/`parsing` then agree, as the four-layer seed's tag rules expect.
std::string stem_word(const std::string& word) {
  auto& stemmer = thread_stemmer();
  std::string stem = stemmer.stem(word);
  if (stem.size() >= 5 && stem.ends_with("er")) {
    stem = stemmer.stem(stem.substr(0, stem.size() - 2) + "ing");
  }
  // Snowball keeps a final e after short syllables ("scrape") but not others.
  if (stem.size() > 3 && stem.back() == 'e') {
    stem.pop_back();
  }
  return stem;
}

// The stems a thread worked out, in a table of fixed slots: a word has one
// slot, chosen by its hash, and takes it from whatever word had it. Looking
// up or remembering a word allocates nothing, and the table never grows: a
// store's claims repeat a small vocabulary, which stays in it, while a store
// of made-up words costs each word one slot write.
class StemCache {
public:
  // The canonical form of `word`, worked out the first time or after
  // another word took its slot.
  std::string_view canonical(const std::string& word) {
    if (word.size() > k_longest) {
      m_long = stem_word(word);
      return m_long;
    }
    if (m_slots.empty()) {
      m_slots.resize(k_slots);
    }
    Slot& slot = m_slots[TextHash{}(word) & (k_slots - 1)];
    if (slot.word_size == word.size() && std::string_view(slot.word, slot.word_size) == word) {
      return {slot.stem, slot.stem_size};
    }
    const auto stem = stem_word(word);
    if (stem.size() > k_longest) {
      m_long = stem;
      return m_long;
    }
    slot.word_size = static_cast<std::uint8_t>(word.size());
    slot.stem_size = static_cast<std::uint8_t>(stem.size());
    std::memcpy(slot.word, word.data(), word.size());
    std::memcpy(slot.stem, stem.data(), stem.size());
    return {slot.stem, slot.stem_size};
  }

  // Gives the table's memory back.
  void forget() { std::vector<Slot>().swap(m_slots); }

private:
  static constexpr std::size_t k_slots = 1U << 14;
  static constexpr std::size_t k_longest = 23; // longer words are stemmed every time
  struct Slot {
    std::uint8_t word_size = 0; // 0: empty (words are never empty)
    std::uint8_t stem_size = 0;
    char word[k_longest];
    char stem[k_longest];
  };
  std::vector<Slot> m_slots; // 768 KB, made on first use
  std::string m_long;        // the last stem not kept in a slot
};

StemCache& thread_stems() {
  thread_local StemCache stems;
  return stems;
}

} // namespace

std::string canonical_tag(std::string_view tag) {
  const std::string folded = fold(tag);
  std::string out;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) {
      if (!out.empty()) {
        out += '-';
      }
      out += thread_stems().canonical(word);
      word.clear();
    }
  };
  for (char c : folded) {
    if (is_separator(c)) {
      flush();
    } else {
      word += c;
    }
  }
  flush();
  return out;
}

void forget_stems() {
  thread_stems().forget();
}

std::vector<std::string> canonical_tags(const std::vector<std::string>& tags) {
  std::vector<std::string> out;
  out.reserve(tags.size());
  for (const auto& tag : tags) {
    auto canonical = canonical_tag(tag);
    if (!canonical.empty()) {
      out.push_back(std::move(canonical));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::size_t shared_tag_count(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return text::shared_count(a, b);
}

} // namespace engram::store
