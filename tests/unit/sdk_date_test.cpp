// Tests of the SDK's calendar Date.
#include "engram/date.hpp"

#include <catch2/catch.hpp>

using engram::Date;

TEST_CASE("dates parse only as YYYY-MM-DD of a real day") {
  CHECK(Date::parse("2026-11-22") == Date(2026, 11, 22));
  CHECK(Date::parse("2024-02-29") == Date(2024, 2, 29));
  CHECK_FALSE(Date::parse("2026-02-29"));
  CHECK_FALSE(Date::parse("1900-02-29"));
  CHECK(Date::parse("2000-02-29"));
  CHECK_FALSE(Date::parse("2026-13-01"));
  CHECK_FALSE(Date::parse("2026-00-10"));
  CHECK_FALSE(Date::parse("2026-1-01"));
  CHECK_FALSE(Date::parse("12/31/2099"));
  CHECK_FALSE(Date::parse(" 2026-01-01"));
  CHECK_FALSE(Date::parse("2026-01-01 "));
  CHECK_FALSE(Date::parse("+026-01-01"));
}

TEST_CASE("date arithmetic crosses months, years and leap days") {
  CHECK(Date(1970, 1, 1).days() == 0);
  CHECK(Date::from_days(0) == Date(1970, 1, 1));
  CHECK(Date(2026, 1, 5).plus_days(90) == Date(2026, 4, 5));
  CHECK(Date(2024, 2, 28).plus_days(1) == Date(2024, 2, 29));
  CHECK(Date(2025, 12, 31).plus_days(1) == Date(2026, 1, 1));
  CHECK(Date(2026, 3, 1).plus_days(-1) == Date(2026, 2, 28));
  CHECK(Date(2026, 11, 22).days_since(Date(2026, 8, 24)) == 90);
  CHECK(Date(1969, 12, 31).days() == -1);
  for (std::int64_t d = -800000; d < 800000; d += 997) {
    CHECK(Date::from_days(d).days() == d);
  }
}

TEST_CASE("dates format as YYYY-MM-DD and order chronologically") {
  CHECK(Date(2026, 3, 7).to_string() == "2026-03-07");
  CHECK(Date(987, 12, 1).to_string() == "0987-12-01");
  CHECK(Date(2026, 1, 31) < Date(2026, 2, 1));
  CHECK(Date(2025, 12, 31) < Date(2026, 1, 1));
}
