// What a claim says, reduced to the parts comparison weighs: its significant
// words, its values, its polarity, and which of them say what it is about.
#pragma once

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace engram::claims {

// A claim as comparison sees it.
struct ClaimTokens {
  // Significant words, stemmed, without stopwords, negations or values; sorted, unique.
  std::vector<std::string> words;
  // Numbers, versions, dates, month and weekday names, quoted or inline-code
  // values, URLs and paths, unstemmed; sorted, unique.
  std::vector<std::string> values;
  // Whether it holds a negation (not, never, no longer, don't, without, avoid, ...).
  bool negated = false;
  // What the claim is about: its words and values before its predicate
  // opens (at the first verb, copula or colon; an instruction has none),
  // sorted, unique. "Server web-1 has 16 GB" is about server and web-1;
  // "Prefers short answers", a profile's line, about the user, unwritten.
  std::vector<std::string> subject;
  // What it says of its subject: its words and values from where its
  // predicate opens, sorted, unique (a word can be in both: "The module
  // leaks modules").
  std::vector<std::string> predicate;
  // The predicate's words in the order written, values left out: an update
  // keeps the older claim's words in order ("sockets after table 5" is not
  // updated by "tables after socket 49", though the word sets are equal).
  std::vector<std::string> sequence;
  // Whether the predicate opens with a copula or a colon ("is master",
  // "Owner: Priya"): it states the subject's one value, so a changed
  // complement is an update where "uses Slack" → "uses Jira" is not.
  bool copular = false;
  // The verb that opens such a predicate with a preposition ("runs on
  // Vite"), stemmed; empty for a copula. Another verb is another relation.
  std::string verb;
  // The preposition after that verb ("lives in", "works from"), after a
  // participle ("is based in") or after a copula ("is in Berlin"): another
  // one relates its subject to another kind of thing. "" for none.
  std::string preposition;
  // Its copula says where its subject is, in or at a named place ("The HQ
  // is in Austin"), as "is located in" does.
  bool at_place = false;
  // Its copula states a trait of its subject ("is vegetarian", "is
  // left-handed"; see copula_states_trait): a person has many at once.
  bool trait = false;
  // It says what it states is new ("now", "instead", "anymore").
  bool now = false;
  // The scopes and names it holds that a fact is true in or of: environments
  // (staging, production), platforms, identifiers (web-1); sorted, unique.
  std::vector<std::string> scopes;
  // Words written right after a value, as units are ("10 MB", "500 Mbps"),
  // stemmed; sorted, unique. A changed value may change its unit.
  std::vector<std::string> units;
  // Capitalised words right before a value that name what it numbers
  // ("Pixel 7", "Tesla Model 3"), and the words of a name of several words
  // before its last ("Salt Lake City"), stemmed; sorted, unique. A model or
  // a name replaced by another changes all of them at once.
  std::vector<std::string> names;
  // The predicate's words written capitalised, as names are ("tracks issues
  // in Linear": "linear"), stemmed; sorted, unique.
  std::vector<std::string> capitalised;
  // The predicate's words written as common nouns are, after "a", "the",
  // "my" … or plural ("lives in a flat", "replies in threads"), stemmed;
  // sorted, unique. A word neither capitalised nor this may be either a
  // name or a common word ("bundled with webpack").
  std::vector<std::string> common;
  // Words of a qualifier right after a value that narrows where it holds
  // ("10 days for international orders", "10:00 on Fridays"), stemmed, a
  // month or weekday as its value; sorted, unique.
  std::vector<std::string> narrowed;
  // Values of its predicate that say which things it holds for, right after
  // "for", "in", "on" … ("for P1 tickets", "in v2", "for 1 hour"); no month
  // or weekday. Sorted, unique.
  std::vector<std::string> cases;
  // What kind of thing a copula says its subject is, or is on ("is a
  // designer", "is on the Pro plan"; see complement_head), or "".
  std::string head;
  // The month and weekday names among its values; sorted, unique.
  std::vector<std::string> dates;
  // It says on what day something is closed ("The office is closed on Dec
  // 25"): such days are many at once, so another date is another occasion.
  bool closure = false;
  // It says the user does something on a weekday that recurs ("works from
  // home on Mondays"): a habit is kept on many days at once, so another day
  // is another occasion, unless the claim says it changed ("now").
  bool habit = false;
  // What a choice it states takes and what it passes over ("Use Vitest
  // instead of Jest", "Prefer tabs over spaces", "… rather than …"): the
  // words and values before the contrast and after it; sorted, unique.
  std::vector<std::string> chosen;
  std::vector<std::string> passed_over;
  // The choice is a change from what it passes over ("The team switched
  // from Jira to Linear", "replaced the Pixel 6 with a Pixel 8").
  bool changed_from = false;
  // Its values that are plain words, as a name or a command in a code span
  // is (`tower`, `make test`, `ENG-`), each with the stems its significant
  // words have when written bare: another claim may write it bare ("run make
  // test"), as words. Sorted.
  std::vector<std::pair<std::string, std::vector<std::string>>> quoted_words;
  // Its words of letters joined by hyphens ("wi-fi", "on-call"), each as the
  // stem of the one word another claim may write instead ("wifi", "oncall")
  // with the stems of its significant parts. Sorted.
  std::vector<std::pair<std::string, std::vector<std::string>>> compounds;
  // The values a Markdown link's target names, which its text leaves out
  // ("See [the runbook](docs/runbook.md)"): another claim may write the
  // target bare ("See the runbook: docs/runbook.md"). Sorted, unique.
  std::vector<std::string> link_targets;
  // The words and values of a reason said after the claim ("— the 2025 test
  // was negative", "because the disk fills"; see without_reason), which the
  // other tokens leave out: the claim compares by what it states, then by
  // why. Stemmed words and values; sorted, unique.
  std::vector<std::string> reason;
  // The stamp a log line opens with ("2026-12-01: …", "[14:32] …"; see
  // stamp_of), or "".
  std::string stamp;
  // Its predicate is in the past tense ("was sick", "Deployed v2.1"): with
  // a stamp, it logs what happened then.
  bool past = false;
  // In the past tense, it names the past time it reports ("was £112 last
  // quarter", "was down yesterday"; see names_past_time).
  bool dated = false;
  // It says its subject changed to a named thing or a team, or left a
  // named thing ("moved to Braga", "switched to Linear", "joined Globex",
  // "moved to the platform team", "left Acme"): the verb's stem, the words
  // after what it changed to that say only when ("last month"), and which
  // of claims/relocation.cpp's readings it is; empty otherwise.
  std::string moved;
  std::vector<std::string> moved_when;
  unsigned char moved_as = 0;
};

// Whether the sorted `tokens` (a list of ClaimTokens) hold `token`.
[[nodiscard]] inline bool holds(const std::vector<std::string>& tokens, const std::string& token) {
  return std::binary_search(tokens.begin(), tokens.end(), token);
}

// The tokens of sorted `a` that sorted `b` lacks.
[[nodiscard]] inline std::vector<std::string> missing(const std::vector<std::string>& a,
                                                      const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// `a` and `b` merged, sorted.
[[nodiscard]] inline std::vector<std::string> joined(const std::vector<std::string>& a,
                                                     const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// Whether `word` (lower-case) is too common to say what a text is about.
[[nodiscard]] bool is_stopword(std::string_view word);

// Whether `word` (lower-case) negates what a claim says (not, never, without, ...).
[[nodiscard]] bool is_negation(std::string_view word);

// The tokens of a claim's text (normalised first, so markup does not count).
[[nodiscard]] ClaimTokens tokens_of(std::string_view text);

} // namespace engram::claims
