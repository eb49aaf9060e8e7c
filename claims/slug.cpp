// Slugs. ICU's "Any-Latin; Latin-ASCII" transliterator does the romanising,
// so a German or Russian tag still names a readable file.
#include "claims/slug.hpp"

#include <algorithm>
#include <memory>
#include <unicode/translit.h>
#include <unicode/unistr.h>

namespace engram::claims {
namespace {

// The longest slug.
constexpr std::size_t k_max_slug = 60;
// A cut at a '-' is preferred when it keeps at least this much.
constexpr std::size_t k_min_cut = 40;

// A transliterator per thread: ICU transliterators are not thread-safe.
icu::Transliterator* thread_transliterator() {
  thread_local std::unique_ptr<icu::Transliterator> transliterator = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::Transliterator> made(
        icu::Transliterator::createInstance("Any-Latin; Latin-ASCII", UTRANS_FORWARD, status));
    return U_SUCCESS(status) ? std::move(made) : nullptr;
  }();
  return transliterator.get();
}

// `text` in ASCII as far as ICU can take it.
std::string ascii(std::string_view text) {
  if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    // Already ASCII, which the transliterator leaves as it is; creating it
    // costs tens of milliseconds.
    return std::string(text);
  }
  auto unicode = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  if (auto* transliterator = thread_transliterator()) {
    transliterator->transliterate(unicode);
  }
  std::string out;
  unicode.toUTF8String(out);
  return out;
}

} // namespace

std::string slug(std::string_view text) {
  std::string out;
  bool dash = false;
  for (const char c : ascii(text)) {
    const char lower = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    if ((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9')) {
      if (dash && !out.empty()) {
        out += '-';
      }
      dash = false;
      out += lower;
    } else if (c != '\'') {
      dash = true; // apostrophes vanish: "don't" is "dont"
    }
  }
  if (out.size() > k_max_slug) {
    const auto cut = out.rfind('-', k_max_slug);
    out.resize(cut != std::string::npos && cut >= k_min_cut ? cut : k_max_slug);
    while (!out.empty() && out.back() == '-') {
      out.pop_back();
    }
  }
  return out.empty() ? "memory" : out;
}

} // namespace engram::claims
