// The pieces of classification that classify.cpp and classify_tasks.cpp
// share, private to claims/: table lookups, labels and imperatives are read
// the same way whichever kind is being tested.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace engram::claims::detail {

// Whether `word` is one of the table `List`: by bisection of a sorted copy,
// made once (asked for every word and clause classified).
template <const auto& List> bool is_one_of(std::string_view word) {
  static const auto sorted = [] {
    auto copy = List;
    std::sort(copy.begin(), copy.end());
    return copy;
  }();
  return std::binary_search(sorted.begin(), sorted.end(), word);
}

// `line` without its container prefix, list marker, task box and emphasis.
[[nodiscard]] std::string_view strip_line_markup(std::string_view line);

// Whether a clause (a line or a sentence) starts with an imperative verb.
[[nodiscard]] bool starts_imperative(std::string_view clause);

// A line's label and the rest: "**Label**: value", "Label: value" or
// "Label — value" with a label of at most six words; nullopt otherwise.
[[nodiscard]] std::optional<std::pair<std::string, std::string_view>>
label_of(std::string_view line);

// Whether the claim is a to-do or an open item: a task box, a task label
// ("TODO:", "Next step:"), or a sentence opening with an intention ("Need to …").
[[nodiscard]] bool is_task(std::string_view text);

// Whether the claim is about the session itself: a session label
// ("**Session ID**: …", "Model: …") or a line naming the conversation.
[[nodiscard]] bool is_session_metadata(std::string_view text);

} // namespace engram::claims::detail
