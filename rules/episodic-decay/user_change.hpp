// What a note says the user changed from: the value a change leaves
// behind ("moved from Osaka to Kyoto", "replaced his Pixel 6 with a Pixel
// 8"), and whether a line of the user file states it.
#pragma once

#include "engram/text.hpp"

#include <array>
#include <string>
#include <string_view>
#include <utility>

namespace engram::episodic_decay::user_detail {

// The thing a replacement puts another in the place of, lower case, without
// its determiner: "pixel 6" of "replaced his pixel 6 with a pixel 8" (or
// swapped or traded … for …, at the start of what is said of the user);
// "" when there is none.
inline std::string replaced_thing(const std::string& lowered) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> k_replacing{
      {{"replaced ", " with "}, {"swapped ", " for "}, {"traded ", " for "}, {"sold ", " and "}}};
  static constexpr std::array<std::string_view, 7> k_determiners{"his ", "her ", "their ", "my ",
                                                                 "the ", "a ",   "an "};
  for (const auto& [verb, then] : k_replacing) {
    if (!lowered.starts_with(verb)) {
      continue;
    }
    auto start = verb.size();
    for (const auto determiner : k_determiners) {
      if (std::string_view(lowered).substr(start).starts_with(determiner)) {
        start += determiner.size();
        break;
      }
    }
    if (const auto end = lowered.find(then, start); end != std::string::npos && end > start) {
      return lowered.substr(start, end - start);
    }
  }
  return {};
}

// The value a change leaves behind, lower case: "osaka" of "moved from
// Osaka to Kyoto" (or switched, changed, upgraded, migrated), "pixel 6" of
// "replaced his Pixel 6 with a Pixel 8"; "" when it names none.
inline std::string changed_from(std::string_view text) {
  // Not "went": "went from Lisbon to Porto" is a trip as often as a move.
  static constexpr std::array<std::string_view, 5> k_verbs{"moved", "switched", "changed",
                                                           "upgraded", "migrated"};
  const std::string lowered = text::lower(text::without_eol(text));
  for (const auto verb : k_verbs) {
    const std::string opening = std::string(verb) + " from ";
    const auto at = lowered.find(opening);
    if (at == std::string::npos || (at > 0 && lowered[at - 1] != ' ')) {
      continue;
    }
    const auto start = at + opening.size();
    const auto to = lowered.find(" to ", start);
    if (to != std::string::npos && to > start) {
      return lowered.substr(start, to - start);
    }
  }
  // "left JetBrains and joined Yandex", "left Stripe for Shopify".
  if (lowered.starts_with("left ")) {
    for (const std::string_view then : {" and joined ", " for ", " to join "}) {
      if (const auto end = lowered.find(then, 5); end != std::string::npos && end > 5) {
        return lowered.substr(5, end - 5);
      }
    }
  }
  return replaced_thing(lowered);
}

// Whether a label's value is what a change left behind: the whole value,
// or its first part ("gothenburg" of "gothenburg, sweden").
inline bool left_behind(const std::string& value, const std::string& from) {
  return !from.empty() && (value == from || value.starts_with(from + ","));
}

} // namespace engram::episodic_decay::user_detail
