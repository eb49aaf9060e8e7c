// Normalisation. Markdown syntax is removed on bytes first (it is all ASCII),
// then ICU folds case and composes (NFC) so "é" typed as one code point and as
// e + combining accent compare equal, then whitespace is collapsed by Unicode's
// definition of white space (no-break spaces included).
#include "claims/normalise.hpp"

#include "claims/source.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

namespace engram::claims {
namespace {

// Whether a byte is ASCII punctuation or space, or the edge of the text:
// where emphasis delimiters can open or close.
bool is_edge(std::string_view text, std::size_t i) {
  if (i >= text.size()) {
    return true;
  }
  const char c = text[i];
  return is_space(c) || (static_cast<unsigned char>(c) < 0x80 &&
                         !((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')));
}

// `text` without emphasis delimiters: runs of * _ ~~ that touch a word edge.
// Inner ones (snake_case, 2*3) are content and stay.
std::string without_emphasis(std::string_view text, KeepBackticks backticks) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '`' && backticks == KeepBackticks::no) {
      ++i;
      continue;
    }
    if (c != '*' && c != '_' && c != '~') {
      out += c;
      ++i;
      continue;
    }
    std::size_t run = 0;
    while (i + run < text.size() && text[i + run] == c) {
      ++run;
    }
    // A single ~ is a home directory, not strikethrough.
    const bool delimiter = c != '~' || run == 2;
    const bool opens_or_closes = (i == 0 || is_edge(text, i - 1)) || is_edge(text, i + run);
    if (!delimiter || !opens_or_closes) {
      out.append(run, c);
    }
    i += run;
  }
  return out;
}

// Markdown syntax removed, line by line.
std::string without_markup(std::string_view text, KeepBackticks backticks) {
  const std::string prose = text::without_comments(text);
  std::string lines;
  std::string_view rest = prose;
  while (!rest.empty()) {
    const auto newline = rest.find('\n');
    lines.append(strip_line_start(rest.substr(0, newline)));
    lines += '\n';
    rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
  }
  return without_emphasis(lines, backticks);
}

// Typographic quotes and apostrophes as their ASCII forms.
void plain_quotes(icu::UnicodeString& text) {
  text.findAndReplace(icu::UnicodeString(static_cast<UChar32>(0x2018)), "'");
  text.findAndReplace(icu::UnicodeString(static_cast<UChar32>(0x2019)), "'");
  text.findAndReplace(icu::UnicodeString(static_cast<UChar32>(0x201C)), "\"");
  text.findAndReplace(icu::UnicodeString(static_cast<UChar32>(0x201D)), "\"");
}

// Whitespace runs as one space, none at the ends.
icu::UnicodeString collapse_spaces(const icu::UnicodeString& text) {
  icu::UnicodeString out;
  bool pending = false;
  for (int32_t i = 0; i < text.length();) {
    const UChar32 c = text.char32At(i);
    i += U16_LENGTH(c);
    if (u_isUWhiteSpace(c) != 0) {
      pending = !out.isEmpty();
      continue;
    }
    if (pending) {
      out.append(static_cast<UChar>(' '));
      pending = false;
    }
    out.append(c);
  }
  return out;
}

// Whether a code point is sentence-final punctuation that comparison ignores.
bool is_trailing_punctuation(UChar32 c) {
  switch (c) {
  case '.':
  case ',':
  case ';':
  case ':':
  case '!':
  case '?':
  case 0x2026: // …
  case 0x3002: // 。
  case 0xFF01: // ！
  case 0xFF0C: // ，
  case 0xFF1F: // ？
    return true;
  default:
    return false;
  }
}

// Whether every byte of `text` is ASCII.
bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// Whether an ASCII byte is white space by Unicode's definition (U+0009 to U+000D, U+0020).
bool is_ascii_white_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// fold's ICU steps for ASCII text, which they leave as it is but for case
// and white space: lower-cased, white-space runs as one space, none at the ends.
std::string fold_ascii(std::string_view plain) {
  std::string out;
  out.reserve(plain.size());
  bool pending = false;
  for (const char c : plain) {
    if (is_ascii_white_space(c)) {
      pending = !out.empty();
      continue;
    }
    if (pending) {
      out += ' ';
      pending = false;
    }
    out += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

// The most passes normalise makes; each pass that changes a normal form
// removes markup, so real text is stable after two.
constexpr int k_max_passes = 8;

// Whether a pass of normalise could change `normal`, itself the result of one:
// only markup it strips (markers, boxes, quotes, comments, emphasis, code) or
// text ICU rewrote can be left for another pass.
bool may_change_again(std::string_view normal) {
  if (normal.empty()) {
    return false;
  }
  const char first = normal.front();
  if (std::string_view("->*+[").find(first) != std::string_view::npos ||
      (first >= '0' && first <= '9')) {
    return true;
  }
  return std::any_of(normal.begin(), normal.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 0x80 ||
           std::string_view("<`*_~").find(c) != std::string_view::npos;
  });
}

} // namespace

std::string_view strip_line_start(std::string_view line) {
  auto skip = [&](std::string_view chars) {
    while (!line.empty() && chars.find(line.front()) != std::string_view::npos) {
      line.remove_prefix(1);
    }
  };
  // Whether the marker's `size` bytes are followed by a space. (A marker that
  // ends its line is left: "is\n42." is a number, not an empty item.)
  auto marker_ends = [&](std::size_t size) {
    return line.size() > size && (line[size] == ' ' || line[size] == '\t');
  };
  // Containers nest on one line ("> - * item"): strip them all, not just the
  // outermost, so that a normal form holds no marker a second pass would strip.
  for (bool stripped = true; stripped;) {
    stripped = false;
    skip(" \t>");
    if (!line.empty() && (line[0] == '-' || line[0] == '*' || line[0] == '+') && marker_ends(1)) {
      line.remove_prefix(1);
      stripped = true;
      continue;
    }
    std::size_t digits = 0;
    while (digits < line.size() && digits < 9 && line[digits] >= '0' && line[digits] <= '9') {
      ++digits;
    }
    if (digits > 0 && digits < line.size() && (line[digits] == '.' || line[digits] == ')') &&
        marker_ends(digits + 1)) {
      line.remove_prefix(digits + 1);
      stripped = true;
    }
  }
  skip(" \t");
  if (line.size() >= 3 && line[0] == '[' && line[2] == ']' &&
      (line[1] == ' ' || line[1] == 'x' || line[1] == 'X') &&
      (line.size() == 3 || is_space(line[3]))) {
    line.remove_prefix(3);
  }
  return line;
}

std::string fold(std::string_view text, KeepBackticks backticks) {
  const std::string plain = without_markup(text, backticks);
  if (is_ascii(plain)) {
    return fold_ascii(plain); // most claims: ICU's conversions cost more than the rest of fold
  }
  auto unicode = icu::UnicodeString::fromUTF8(
      icu::StringPiece(plain.data(), static_cast<int32_t>(plain.size())));
  plain_quotes(unicode);
  unicode.foldCase();
  UErrorCode status = U_ZERO_ERROR;
  const auto* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_SUCCESS(status)) {
    auto composed = nfc->normalize(unicode, status);
    if (U_SUCCESS(status)) {
      unicode = std::move(composed);
    }
  }
  std::string out;
  collapse_spaces(unicode).toUTF8String(out);
  return out;
}

namespace {

// One pass of normalise: fold without backticks, trailing punctuation removed.
std::string normalise_once(std::string_view text) {
  std::string folded = fold(text, KeepBackticks::no);
  if (is_ascii(folded)) {
    while (!folded.empty() && (is_trailing_punctuation(static_cast<unsigned char>(folded.back())) ||
                               is_ascii_white_space(folded.back()))) {
      folded.pop_back();
    }
    return folded;
  }
  auto unicode = icu::UnicodeString::fromUTF8(
      icu::StringPiece(folded.data(), static_cast<int32_t>(folded.size())));
  while (!unicode.isEmpty()) {
    const auto last = unicode.moveIndex32(unicode.length(), -1);
    const UChar32 c = unicode.char32At(last);
    if (!is_trailing_punctuation(c) && u_isUWhiteSpace(c) == 0) {
      break;
    }
    unicode.truncate(last);
  }
  std::string out;
  unicode.toUTF8String(out);
  return out;
}

} // namespace

std::string normalise(std::string_view text) {
  // One pass can uncover what another would remove ("[ ]." loses its period,
  // then is a task box; "_- x_" loses its emphasis, then is a list item), so
  // passes repeat until the text is stable: a normal form normalises to itself.
  std::string normal = normalise_once(text);
  for (int pass = 0; pass < k_max_passes && may_change_again(normal); ++pass) {
    std::string again = normalise_once(normal);
    if (again == normal) {
      break;
    }
    normal = std::move(again);
  }
  return normal;
}

} // namespace engram::claims
