// Date: a calendar date (no time, no zone), the unit of every decay and age
// rule. Part of the plugin SDK; header-only so plugins link nothing.
#pragma once

#include <charconv>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace engram {

// A proleptic Gregorian calendar date.
class Date {
public:
  // Makes a date; the caller guarantees it is valid (see is_valid).
  constexpr Date(int year, unsigned month, unsigned day) : m_year(year), m_month(month), m_day(day) {}

  // Parses exactly `YYYY-MM-DD` of a real calendar day; nothing else.
  static std::optional<Date> parse(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') {
      return std::nullopt;
    }
    int year = 0;
    unsigned month = 0;
    unsigned day = 0;
    if (!parse_digits(text.substr(0, 4), year) || !parse_digits(text.substr(5, 2), month) ||
        !parse_digits(text.substr(8, 2), day) || !is_valid(year, month, day)) {
      return std::nullopt;
    }
    return Date(year, month, day);
  }

  // Makes the date that is `days` days after 1970-01-01.
  static constexpr Date from_days(std::int64_t days) {
    // Howard Hinnant's civil_from_days algorithm.
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const auto doe = static_cast<unsigned>(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned day = doy - (153 * mp + 2) / 5 + 1;
    const unsigned month = mp < 10 ? mp + 3 : mp - 9;
    const auto year = static_cast<int>(static_cast<std::int64_t>(yoe) + era * 400 + (month <= 2));
    return Date(year, month, day);
  }

  // True when year-month-day names a real day.
  static constexpr bool is_valid(int year, unsigned month, unsigned day) {
    if (month < 1 || month > 12 || day < 1) {
      return false;
    }
    constexpr unsigned k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    const unsigned last = (month == 2 && leap) ? 29 : k_days[month - 1];
    return day <= last;
  }

  // Days since 1970-01-01 (negative before it).
  constexpr std::int64_t days() const {
    const int y = m_year - (m_month <= 2);
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m_month > 2 ? m_month - 3 : m_month + 9) + 2) / 5 + m_day - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
  }

  // The date `n` days later (earlier when negative).
  constexpr Date plus_days(std::int64_t n) const { return from_days(days() + n); }

  // Whole days from `other` to this date.
  constexpr std::int64_t days_since(const Date& other) const { return days() - other.days(); }

  constexpr int year() const { return m_year; }
  constexpr unsigned month() const { return m_month; }
  constexpr unsigned day() const { return m_day; }

  // Formats as `YYYY-MM-DD`.
  std::string to_string() const {
    std::string out(10, '0');
    auto put = [&out](std::size_t at, unsigned value, int width) {
      for (int i = width - 1; i >= 0; --i) {
        out[at + static_cast<std::size_t>(i)] = static_cast<char>('0' + value % 10);
        value /= 10;
      }
    };
    put(0, static_cast<unsigned>(m_year), 4);
    out[4] = '-';
    put(5, m_month, 2);
    out[7] = '-';
    put(8, m_day, 2);
    return out;
  }

  constexpr auto operator<=>(const Date&) const = default;
  constexpr bool operator==(const Date&) const = default;

private:
  template <typename N> static bool parse_digits(std::string_view text, N& out) {
    for (char c : text) {
      if (c < '0' || c > '9') {
        return false;
      }
    }
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
  }

  int m_year;
  unsigned m_month;
  unsigned m_day;
};

// How parse_date_value reads the time of a YAML timestamp.
namespace date_detail {

inline bool all_digits(std::string_view text, std::size_t min, std::size_t max) {
  if (text.size() < min || text.size() > max) {
    return false;
  }
  for (char c : text) {
    if (c < '0' || c > '9') {
      return false;
    }
  }
  return true;
}

// True when `digits` (all digits) is at most `max`.
inline bool at_most(std::string_view digits, int max) {
  int value = 0;
  for (char c : digits) {
    value = value * 10 + (c - '0');
  }
  return value <= max;
}

// Checks the time and zone part of a YAML timestamp: `hh:mm:ss(.frac)?(Z|±hh(:mm)?)?`,
// with a real time of day (`25:00:00` is no time, so its date is not read either).
inline bool is_timestamp_time(std::string_view text) {
  const auto c1 = text.find(':');
  if (c1 == std::string_view::npos || !all_digits(text.substr(0, c1), 1, 2) ||
      !at_most(text.substr(0, c1), 23)) {
    return false;
  }
  text.remove_prefix(c1 + 1);
  if (text.size() < 5 || !all_digits(text.substr(0, 2), 2, 2) || text[2] != ':' ||
      !all_digits(text.substr(3, 2), 2, 2) || !at_most(text.substr(0, 2), 59) ||
      !at_most(text.substr(3, 2), 60)) { // 60: a leap second
    return false;
  }
  text.remove_prefix(5);
  if (!text.empty() && text.front() == '.') {
    std::size_t i = 1;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      ++i;
    }
    if (i == 1) {
      return false;
    }
    text.remove_prefix(i);
  }
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  if (text.empty() || text == "Z") {
    return true;
  }
  if (text.front() != '+' && text.front() != '-') {
    return false;
  }
  text.remove_prefix(1);
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    return all_digits(text, 1, 2) && at_most(text, 23);
  }
  return all_digits(text.substr(0, colon), 1, 2) && at_most(text.substr(0, colon), 23) &&
         all_digits(text.substr(colon + 1), 2, 2) && at_most(text.substr(colon + 1), 59);
}

} // namespace date_detail

// Reads a date the way engram accepts them: `YYYY-MM-DD`, or a YAML 1.1
// timestamp (its date part, when its time of day is a real one). Anything
// else is nullopt, never a guess. The host reads frontmatter dates with it
// too, so a rule and engram agree on every date.
inline std::optional<Date> parse_date_value(std::string_view text) {
  if (auto date = Date::parse(text)) {
    return date;
  }
  // A YAML 1.1 timestamp: yyyy-m?m-d?d, then T/t or spaces, then a time.
  const auto d1 = text.find('-');
  const auto d2 = d1 == std::string_view::npos ? d1 : text.find('-', d1 + 1);
  if (d2 == std::string_view::npos) {
    return std::nullopt;
  }
  std::size_t sep = d2 + 1;
  while (sep < text.size() && text[sep] >= '0' && text[sep] <= '9') {
    ++sep;
  }
  const auto year = text.substr(0, d1);
  const auto month = text.substr(d1 + 1, d2 - d1 - 1);
  const auto day = text.substr(d2 + 1, sep - d2 - 1);
  if (!date_detail::all_digits(year, 4, 4) || !date_detail::all_digits(month, 1, 2) || !date_detail::all_digits(day, 1, 2) ||
      sep >= text.size()) {
    return std::nullopt;
  }
  std::size_t time = sep;
  if (text[time] == 'T' || text[time] == 't') {
    ++time;
  } else {
    while (time < text.size() && (text[time] == ' ' || text[time] == '\t')) {
      ++time;
    }
    if (time == sep) {
      return std::nullopt;
    }
  }
  if (!date_detail::is_timestamp_time(text.substr(time))) {
    return std::nullopt;
  }
  const int y = std::stoi(std::string(year));
  const auto m = static_cast<unsigned>(std::stoi(std::string(month)));
  const auto d = static_cast<unsigned>(std::stoi(std::string(day)));
  if (!Date::is_valid(y, m, d)) {
    return std::nullopt;
  }
  return Date(y, m, d);
}

} // namespace engram
