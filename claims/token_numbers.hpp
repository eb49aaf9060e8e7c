// Numbers said in words, read as values, private to claims/ (see
// token_numbers.cpp).
#pragma once

#include "claims/subject.hpp"

#include <string_view>
#include <vector>

namespace engram::claims::detail {

// Each "one" of `text`'s tokens that counts what follows it ("needs one
// approval", "within one hour") as the value 1, as "two" is 2: before a word
// of content, not after a determiner ("the one", "no one") nor before "of"
// ("one of the replicas"); none where `text` names with it ("a Sonos One").
void one_as_number(std::vector<Token>& tokens, std::string_view text);

// Each phrase that bounds the number after it as one word: "up to", "at
// most", "no more than", "less than", "below" and "max" as "under"; "at
// least", "no less than", "more than" and "min" as "above", so "Keep PRs at
// most 400 lines" says what "Keep PRs under 400 lines" does. Before anything
// but a number ("under kv/prod", "up to Backblaze") the words stay.
void bounds_as_one(std::vector<Token>& tokens);

// Each "X is (are) limited to N" (capped at, restricted to; "now" may come
// between) as "X can be under N": a limit says how much X may be, as "can be
// up to N" does, and stay_as_keep then reads both as "Keep X under N".
void limit_as_bound(std::vector<Token>& tokens);

// Each number followed by "am" or "pm" ("6 pm", "9:30 AM", "6pm" split from
// its unit) as the time of day it names, 24-hour: "18:00", "09:30".
void clock_times(std::vector<Token>& tokens);

// Each number or version followed by "or later" (or newer, higher, above,
// more, greater; "and up", "and above", "and later"), or written with "+"
// ("Java 17+"), as the bound "above" it: "Java 17 or later" and "Java 17+"
// say one thing.
void onward_as_bound(std::vector<Token>& tokens);

// The numbers of `text`'s tokens read as they are meant: clock_times,
// one_as_number, join_numbers, designate_numbers, onward_as_bound,
// bounds_as_one, then limit_as_bound.
void read_numbers(std::vector<Token>& tokens, std::string_view text);

} // namespace engram::claims::detail
