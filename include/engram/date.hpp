// Date: a calendar date (no time, no zone), the unit of every decay and age
// rule. Part of the plugin SDK; header-only so plugins link nothing.
#pragma once

#include <charconv>
#include <compare>
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

} // namespace engram
