// Sentence splitting. ICU's sentence iterator knows Unicode's rules (UAX #29)
// and many scripts; on technical prose it breaks after abbreviations
// ("e.g. Python"), inside inline code ("`a. B`") and glued punctuation in URLs
// ("x.org/?q=1"). Those breaks are vetoed here rather than masked before ICU
// runs, so the offsets ICU returns stay offsets of the source.
#include "claims/sentence.hpp"

#include "engram/text.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <unicode/brkiter.h>
#include <unicode/utext.h>

namespace engram::claims {
namespace {

// Abbreviations that end in a period but do not end a sentence. Dotted
// letter sequences (e.g., i.e., U.S., a.m.) are recognised by shape instead.
constexpr std::array<std::string_view, 30> k_abbreviations = {
    "etc.", "vs.",  "approx.", "dr.", "mr.",  "mrs.",  "ms.",  "prof.", "cf.",   "al.",
    "inc.", "ltd.", "corp.",   "co.", "jr.",  "sr.",   "st.",  "viz.",  "resp.", "incl.",
    "esp.", "ca.",  "fig.",    "eq.", "ref.", "dept.", "est.", "misc.", "ver.",  "vol.",
};

// A sentence iterator per thread: ICU iterators are not thread-safe, and
// creating one loads rule data, so each thread keeps its own.
icu::BreakIterator* thread_iterator() {
  thread_local std::unique_ptr<icu::BreakIterator> iterator = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> made(
        icu::BreakIterator::createSentenceInstance(icu::Locale::getUS(), status));
    return U_SUCCESS(status) ? std::move(made) : nullptr;
  }();
  return iterator.get();
}

// The paragraph as ICU should read it: line breaks and the block-quote
// markers that start continuation lines become spaces, byte for byte.
std::string reading_copy(std::string_view paragraph) {
  std::string copy(paragraph);
  bool line_start = false;
  for (auto& c : copy) {
    if (c == '\n' || c == '\r') {
      c = ' ';
      line_start = true;
    } else if (line_start && (c == '>' || c == ' ' || c == '\t')) {
      c = ' ';
    } else {
      line_start = false;
    }
  }
  return copy;
}

// ICU's candidate sentence breaks in `copy`, excluding its two ends.
std::vector<std::size_t> icu_breaks(const std::string& copy) {
  std::vector<std::size_t> breaks;
  auto* iterator = thread_iterator();
  if (iterator == nullptr) {
    return breaks;
  }
  UErrorCode status = U_ZERO_ERROR;
  UText* text = utext_openUTF8(nullptr, copy.data(), static_cast<int64_t>(copy.size()), &status);
  if (U_FAILURE(status)) {
    return breaks;
  }
  iterator->setText(text, status);
  if (U_SUCCESS(status)) {
    // With UTF-8 UText, ICU's "native" indexes are byte offsets of `copy`.
    for (auto b = iterator->next(); b != icu::BreakIterator::DONE; b = iterator->next()) {
      const auto offset = static_cast<std::size_t>(b);
      if (offset > 0 && offset < copy.size()) {
        breaks.push_back(offset);
      }
    }
  }
  // The iterator keeps a shallow clone of `text`; it is not read again before
  // the next setText, so the copy may die with this call.
  utext_close(text);
  return breaks;
}

// The word that ends before `offset` (trailing spaces skipped), stripped of
// the brackets, quotes and emphasis around it.
std::string_view word_before(std::string_view copy, std::size_t offset) {
  std::size_t end = offset;
  while (end > 0 && is_space(copy[end - 1])) {
    --end;
  }
  std::size_t begin = end;
  while (begin > 0 && !is_space(copy[begin - 1])) {
    --begin;
  }
  std::string_view word = copy.substr(begin, end - begin);
  constexpr std::string_view k_wrappers = "([{\"'*_`~<";
  constexpr std::string_view k_closers = ")]}\"'*_`~>";
  while (!word.empty() && k_wrappers.find(word.front()) != std::string_view::npos) {
    word.remove_prefix(1);
  }
  while (!word.empty() && k_closers.find(word.back()) != std::string_view::npos) {
    word.remove_suffix(1);
  }
  return word;
}

// Whether a break at `offset` must be vetoed.
bool vetoed(std::string_view copy, std::size_t offset, const std::vector<Span>& code_spans) {
  for (const auto& span : code_spans) {
    if (span.begin <= offset && offset <= span.end) {
      return true;
    }
  }
  // Latin sentences are separated by whitespace; an ASCII character glued to
  // the next sentence is punctuation inside a URL, path or version. Scripts
  // without spaces (CJK's 。) end in non-ASCII bytes and keep their breaks.
  const auto before = static_cast<unsigned char>(copy[offset - 1]);
  if (!is_space(copy[offset - 1]) && before < 0x80) {
    return true;
  }
  return is_abbreviation(word_before(copy, offset));
}

// Where a hard line break just before `offset` lets the next sentence start.
std::size_t after_line_break(std::string_view paragraph, std::size_t offset) {
  const auto newline = paragraph.find_first_of("\r\n", offset);
  if (newline != std::string_view::npos && paragraph.substr(newline).starts_with("\r\n")) {
    return newline + 2;
  }
  return newline == std::string_view::npos ? paragraph.size() : newline + 1;
}

} // namespace

bool is_abbreviation(std::string_view word) {
  if (word.size() < 2 || word.back() != '.') {
    return false;
  }
  const std::string lower = text::lower(word);
  if (std::find(k_abbreviations.begin(), k_abbreviations.end(), lower) != k_abbreviations.end()) {
    return true;
  }
  // Dotted initials: e.g. i.e. U.S. a.m. (letter, dot, letter, dot, ...).
  if (lower.size() < 4 || lower.size() % 2 != 0) {
    return false;
  }
  for (std::size_t i = 0; i < lower.size(); i += 2) {
    if (lower[i] < 'a' || lower[i] > 'z' || lower[i + 1] != '.') {
      return false;
    }
  }
  return true;
}

std::vector<Span> split_sentences(std::string_view paragraph, const std::vector<Span>& code_spans,
                                  const std::vector<std::size_t>& hard_breaks) {
  const std::string copy = reading_copy(paragraph);
  std::vector<std::size_t> breaks;
  for (const auto offset : icu_breaks(copy)) {
    if (!vetoed(copy, offset, code_spans)) {
      breaks.push_back(offset);
    }
  }
  for (const auto offset : hard_breaks) {
    breaks.push_back(after_line_break(paragraph, offset));
  }
  breaks.push_back(copy.size());
  std::sort(breaks.begin(), breaks.end());
  breaks.erase(std::unique(breaks.begin(), breaks.end()), breaks.end());

  std::vector<Span> sentences;
  std::size_t begin = 0;
  for (const auto end : breaks) {
    Span sentence{begin, std::min(end, copy.size())};
    begin = sentence.end;
    while (sentence.begin < sentence.end && is_space(copy[sentence.begin])) {
      ++sentence.begin;
    }
    sentence = trim_end(copy, sentence);
    if (!sentence.empty()) {
      sentences.push_back(sentence);
    }
  }
  return sentences;
}

} // namespace engram::claims
