// Log stamps (see stamp.hpp).
#include "claims/stamp.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <utility>

namespace engram::claims::detail {

namespace {

// The length of the date ("2026-12-06") or clock time ("14:32", "9:05:30")
// `text` opens with; 0 when it opens with neither.
std::size_t stamp_length(std::string_view text) {
  const auto digits = [&](std::size_t at, std::size_t n) {
    return at + n <= text.size() && std::all_of(text.begin() + static_cast<std::ptrdiff_t>(at),
                                                text.begin() + static_cast<std::ptrdiff_t>(at + n),
                                                [](char c) { return c >= '0' && c <= '9'; });
  };
  if (digits(0, 4) && text.size() >= 10 && text[4] == '-' && digits(5, 2) && text[7] == '-' &&
      digits(8, 2)) {
    return 10;
  }
  const std::size_t hour = digits(0, 2) ? 2 : digits(0, 1) ? 1 : 0;
  if (hour == 0 || hour >= text.size() || text[hour] != ':' || !digits(hour + 1, 2)) {
    return 0;
  }
  const auto end = hour + 3;
  return end < text.size() && text[end] == ':' && digits(end + 1, 2) ? end + 3 : end;
}

// Where the words of a claim's text start: past a quote, a list marker
// ("-", "1.") and a task's box ("[ ]", "[x]").
std::size_t words_start(std::string_view text) {
  const auto skip = [&](std::size_t at) {
    return std::min(text.find_first_not_of(" \t>", at), text.size());
  };
  auto at = skip(0);
  auto digits = at;
  while (digits < text.size() && digits - at < 9 && text[digits] >= '0' && text[digits] <= '9') {
    ++digits;
  }
  const auto spaced = [&](std::size_t i) { return i < text.size() && text[i] == ' '; };
  if (at < text.size() && (text[at] == '-' || text[at] == '*' || text[at] == '+') &&
      spaced(at + 1)) {
    at = skip(at + 1);
  } else if (digits > at && digits < text.size() && (text[digits] == '.' || text[digits] == ')') &&
             spaced(digits + 1)) {
    at = skip(digits + 1);
  }
  for (const std::string_view box : {"[ ]", "[x]", "[X]"}) {
    if (text.substr(at).starts_with(box) && spaced(at + box.size())) {
      return skip(at + box.size());
    }
  }
  return at;
}

// Where the stamp a log line opens with starts, and where the words after
// it start; nullopt when the line opens with no stamp.
std::optional<std::pair<std::size_t, std::size_t>> stamp_span(std::string_view text) {
  const auto start = words_start(text);
  const bool bracketed = start < text.size() && text[start] == '[';
  auto at = start + (bracketed ? 1 : 0);
  bool stamped = false;
  for (auto n = stamp_length(text.substr(at)); n > 0; n = stamp_length(text.substr(at))) {
    stamped = true;
    at += n;
    if (at + 1 < text.size() && (text[at] == ' ' || text[at] == 'T') &&
        stamp_length(text.substr(at + 1)) > 0) {
      ++at; // a date and its time
    } else {
      break;
    }
  }
  const auto joined = [&](std::size_t i) { // a letter or digit right after: not a stamp
    return i < text.size() && std::isalnum(static_cast<unsigned char>(text[i])) != 0;
  };
  if (!stamped || joined(at) || (bracketed && (at >= text.size() || text[at++] != ']'))) {
    return std::nullopt;
  }
  // A colon, a dash or a bracket ends the stamp; after a bare space, the
  // capital a logged sentence opens with (not a verb: the stamp is its subject).
  const auto spaces = [&] { at = std::min(text.find_first_not_of(" \t", at), text.size()); };
  spaces();
  bool marked = bracketed;
  for (const std::string_view mark : {":", "-", "\u2014", "\u2013"}) {
    if (!marked && text.substr(at).starts_with(mark) && !joined(at + mark.size())) {
      at += mark.size(); // not a range ("14:30-15:00")
      marked = true;
    }
  }
  spaces();
  const auto words = at;
  if (words == text.size() || (!marked && !(text[words] >= 'A' && text[words] <= 'Z'))) {
    return std::nullopt;
  }
  return std::pair{start, words};
}

} // namespace

std::string without_stamp(std::string_view text) {
  const auto span = stamp_span(text);
  if (!span) {
    return std::string(text);
  }
  return std::string(text.substr(0, span->first)) + std::string(text.substr(span->second));
}

std::string stamp_of(std::string_view text) {
  const auto span = stamp_span(text);
  if (!span) {
    return {};
  }
  auto stamp = text.substr(span->first, span->second - span->first);
  // Its date and time only: not the bracket, the mark or the spaces around them.
  const auto first = stamp.find_first_of("0123456789");
  const auto last = stamp.find_last_of("0123456789");
  return std::string(stamp.substr(first, last - first + 1));
}

} // namespace engram::claims::detail
