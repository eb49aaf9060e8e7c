// Idioms read as what they say: phrases that say nothing of a claim
// dropped ("Make sure to", "Don't forget to", the "using" of "avoid using"),
// the "get" of a passive read as the copula it stands for ("Payments get
// processed"), words that say a claim is new ("now", "no longer"), and
// switching the thing one has of a kind read as having it.
#include "claims/token_idioms.hpp"

#include "claims/alike.hpp"
#include "claims/token_roles.hpp"
#include "claims/token_values.hpp"
#include "claims/token_words.hpp"
#include "claims/tokens.hpp"
#include "claims/words.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace engram::claims::detail {
namespace {

// The forms of "be" that a passive or a state is written with.
constexpr std::array<std::string_view, 6> k_be = {"is", "are", "was", "were", "be", "been"};

// Words that, before "of" or "to", say a group their subject is one of.
constexpr std::array<std::string_view, 8> k_members = {
    "member", "part", "one", "fan", "contributor", "maintainer", "alumnus", "volunteer"};

// Verbs that a negation before them and "to" after them cancel: "don't
// forget to bump" and "never fail to bump" say "bump".
constexpr std::array<std::string_view, 6> k_cancelling = {"forget",   "forgot",  "fail",
                                                          "hesitate", "neglect", "omit"};

// Words after "not" that make it "as well as": "caches HTML, not just images".
constexpr std::array<std::string_view, 3> k_not_only = {"only", "just", "merely"};

bool negates(const Token& token) {
  return !token.value && (is_negation(token.text) || token.text.ends_with("n't"));
}

} // namespace

bool drop_idioms(std::vector<Token>& out) {
  std::size_t w = !out.empty() && out[0].text == "please" ? 1 : 0;
  const auto is = [&](std::size_t at, std::string_view word) {
    return at < out.size() && !out[at].value && out[at].text == word;
  };
  const bool sure = (is(w, "make") || is(w, "be")) && is(w + 1, "sure");
  const bool remember = is(w, "remember") && is(w + 1, "to");
  const auto request = request_opener(out);
  w = sure ? w + 2 : remember ? w + 1 : request;
  // Kept tokens move down in place: most claims hold no such phrase, and
  // every claim of a store is tokenised.
  std::size_t kept = 0;
  for (; w < out.size(); ++w) {
    const bool cancelled = negates(out[w]) && w + 1 < out.size() && !out[w + 1].value &&
                           is_listed(k_cancelling, out[w + 1].text) && is(w + 2, "to");
    // "of choice" after a thing says only that it is the one chosen: "editor of choice".
    if (cancelled || (is(w, "of") && is(w + 1, "choice") && kept > 0) ||
        (is(w, "not") && w + 1 < out.size() && is_listed(k_not_only, out[w + 1].text))) {
      ++w; // the two words
      continue;
    }
    // "Avoid using X" avoids X.
    if (is(w, "using") && kept > 0 && !out[kept - 1].value &&
        (out[kept - 1].text == "avoid" || out[kept - 1].text == "avoids")) {
      continue;
    }
    if (kept != w) {
      out[kept] = std::move(out[w]);
    }
    ++kept;
  }
  out.resize(kept);
  return sure || remember || request != 0;
}

void passive_get_as_is(std::vector<Token>& out) {
  constexpr std::array<std::string_view, 3> k_present = {"get", "gets", "getting"};
  constexpr std::array<std::string_view, 2> k_past = {"got", "gotten"};
  // Participles no "-ed" shows that often follow "get" ("gets fed", "got paid").
  constexpr std::array<std::string_view, 24> k_irregular = {
      "fed",     "paid",  "sent",  "sold",   "built",  "made",   "done",  "kept",
      "held",    "told",  "set",   "shut",   "stuck",  "lost",   "left",  "hit",
      "written", "taken", "given", "broken", "stolen", "chosen", "eaten", "hidden",
  };
  for (std::size_t w = 1; w + 1 < out.size(); ++w) {
    const auto& next = out[w + 1];
    const bool participle = !next.value && ((next.text.size() > 4 && next.text.ends_with("ed")) ||
                                            is_listed(k_irregular, next.text));
    if (out[w].value || !participle || out[w - 1].value || is_stopword(out[w - 1].text)) {
      continue;
    }
    if (is_listed(k_present, out[w].text)) {
      out[w].text = "is";
    } else if (is_listed(k_past, out[w].text)) {
      out[w].text = "was";
    }
  }
  // "has got a cat" has what "has a cat" has; "has got worse" stays.
  const auto had = [&](std::size_t w) {
    return w > 0 && w + 1 < out.size() && out[w].text == "got" && !out[w - 1].value &&
           (out[w - 1].text == "has" || out[w - 1].text == "have") &&
           (out[w + 1].value || out[w + 1].text == "a" || out[w + 1].text == "an" ||
            out[w + 1].text == "the" || out[w + 1].text == "no");
  };
  for (std::size_t w = 1; w < out.size(); ++w) {
    if (!out[w].value && had(w)) {
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(w));
    }
  }
}

void change_to_as_copula(std::vector<Token>& out) {
  for (std::size_t w = 0; w < out.size(); ++w) {
    auto p = w + 1;
    while (p < out.size() && !out[p].value && (out[p].text == "now" || out[p].text == "just")) {
      ++p;
    }
    const bool copula = !out[w].value && is_listed(k_be, out[w].text);
    if (!copula || p + 2 >= out.size() || out[p].value || out[p + 1].value ||
        out[p + 1].text != "to" || !out[p + 2].value || out[p].text == "renamed" ||
        !says_change_to(comparable_stem(out[p].text)) || names_past_time(out, p)) {
      // Dated ("was raised to £9,000 last month"), it says when it changed,
      // not what held then: it keeps its verb.
      continue;
    }
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(p),
              out.begin() + static_cast<std::ptrdiff_t>(p + 2));
  }
}

void allergy_as_allergic(std::vector<Token>& out) {
  constexpr std::array<std::string_view, 2> k_having = {"has", "have"};
  constexpr std::size_t k_allergen_words = 2;
  for (std::size_t w = 1; w + 2 < out.size(); ++w) {
    if (out[w].value || !is_listed(k_having, out[w].text)) {
      continue;
    }
    auto first = w + 1;
    if (!out[first].value && (out[first].text == "a" || out[first].text == "an")) {
      ++first;
    }
    auto allergy = first;
    while (allergy < out.size() && allergy < first + k_allergen_words && !out[allergy].value &&
           out[allergy].text != "allergy") {
      ++allergy;
    }
    if (allergy == first || allergy >= out.size() || out[allergy].text != "allergy") {
      continue;
    }
    // "has a peanut allergy" → "is allergic to peanut".
    std::vector<Token> read{{"is", false}, {"allergic", false}, {"to", false}};
    read.insert(read.end(), out.begin() + static_cast<std::ptrdiff_t>(first),
                out.begin() + static_cast<std::ptrdiff_t>(allergy));
    read.back().boundary = out[allergy].boundary;
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(w),
              out.begin() + static_cast<std::ptrdiff_t>(allergy) + 1);
    out.insert(out.begin() + static_cast<std::ptrdiff_t>(w), read.begin(), read.end());
    return;
  }
}

void forbidden_as_never(std::vector<Token>& out) {
  // The gerund opens the claim, or ends the compound that does ("Force-pushing").
  std::size_t gerund = 0;
  while (gerund + 1 < out.size() && out[gerund].hyphen) {
    ++gerund;
  }
  constexpr std::size_t k_gerund_letters = 5; // "doing" is the shortest
  if (out.size() < 3 || out[gerund].value || out[gerund].text.size() < k_gerund_letters ||
      !out[gerund].text.ends_with("ing")) {
    return;
  }
  constexpr std::array<std::string_view, 3> k_forbidden = {"forbidden", "prohibited", "banned"};
  constexpr std::array<std::string_view, 2> k_allowed = {"allowed", "permitted"};
  constexpr std::array<std::string_view, 2> k_negated_copulas = {"isn't", "aren't"};
  const auto is = [&](std::size_t at, auto& words) {
    return at < out.size() && !out[at].value && is_listed(words, out[at].text);
  };
  for (std::size_t w = gerund + 1; w + 1 < out.size(); ++w) {
    const bool copula = !out[w].value && (out[w].text == "is" || out[w].text == "are");
    const bool negation =
        w + 1 < out.size() && (out[w + 1].text == "not" || out[w + 1].text == "never");
    std::size_t after = 0; // the first token after the phrase that forbids
    if (copula && is(w + 1, k_forbidden)) {
      after = w + 2;
    } else if (copula && negation && is(w + 2, k_allowed)) {
      after = w + 3;
    } else if (is(w, k_negated_copulas) && is(w + 1, k_allowed)) {
      after = w + 2;
    }
    if (after != 0) {
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(w),
                out.begin() + static_cast<std::ptrdiff_t>(after));
      out.insert(out.begin(), Token{"never", false, false, true});
      out[1].opener = false;
      return;
    }
  }
}

void holder_without_now(std::vector<Token>& out, const std::unordered_set<std::string>& proper,
                        Predicate& predicate) {
  constexpr std::array<std::string_view, 2> k_now = {"new", "current"};
  constexpr std::array<std::string_view, 8> k_determiners = {"the", "our",   "my",   "his",
                                                             "her", "their", "your", "its"};
  for (std::size_t w = 1; w + 1 < predicate.at && w + 1 < out.size(); ++w) {
    const auto& before = out[w - 1];
    const bool determined =
        !before.value && (is_listed(k_determiners, before.text) || before.text.ends_with("'s"));
    if (determined && !out[w].value && is_listed(k_now, out[w].text) &&
        !proper.contains(out[w].text) && !out[w + 1].value) {
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(w));
      --predicate.at;
      return;
    }
  }
}

void redone_as_done(std::vector<Token>& out, const Predicate& predicate) {
  // Participles of doing again that say only that: not "renamed" (a change
  // read as one already), nor "reported" or "released" (verbs of their own).
  constexpr std::array<std::string_view, 12> k_redone = {
      "rewritten",   "rebuilt",   "redeployed",    "reconfigured", "redesigned",  "reassigned",
      "rescheduled", "relocated", "reimplemented", "rehosted",     "reinstalled", "rerouted",
  };
  // The participle right after the copula that opens the predicate, adverbs between.
  for (auto w = predicate.at + 1; w < out.size() && w <= predicate.at + 3; ++w) {
    if (out[w].value || !is_listed(k_redone, out[w].text)) {
      continue;
    }
    if (is_listed(k_be, out[w - 1].text) || w == predicate.at + predicate.passive) {
      out[w].text.erase(0, 2);
    }
    return;
  }
}

bool in_past(const std::vector<Token>& out, std::size_t at) {
  constexpr std::array<std::string_view, 24> k_past = {
      "was",   "were", "had",   "did",  "went", "ran",  "broke", "made",
      "took",  "got",  "left",  "came", "held", "fell", "sent",  "built",
      "wrote", "gave", "found", "met",  "paid", "said", "told",  "won",
  };
  const auto past = [&](std::size_t w) {
    const auto& word = out[w].text;
    return !out[w].value && (is_listed(k_past, word) || (word.size() >= 5 && word.ends_with("ed")));
  };
  // A log line may open with its verb ("Deployed v2.1 to staging").
  return (at < out.size() && past(at)) || (!out.empty() && past(0));
}

bool names_past_time(const std::vector<Token>& out, std::size_t at) {
  constexpr std::array<std::string_view, 13> k_periods = {
      "night",  "week",   "weekend", "month",  "quarter", "year", "term",
      "season", "summer", "winter",  "spring", "autumn",  "fall"};
  for (auto w = at; w < out.size(); ++w) {
    const auto& word = out[w].text;
    if (out[w].value) {
      continue;
    }
    const bool period =
        w + 1 < out.size() && (out[w + 1].value ? role_of(out[w + 1].text) == Role::date
                                                : is_listed(k_periods, out[w + 1].text));
    if (word == "yesterday" || word == "ago" || (word == "last" && period)) {
      return true;
    }
  }
  return false;
}

bool is_membership_word(const std::string& stem) {
  static const auto stems = stems_of(k_members);
  return stems.contains(stem);
}

bool states_membership(const std::vector<Token>& out, std::size_t w) {
  // A seat on a body one may sit on several of ("is on the school board"),
  // or a name on a list one may be on several of ("on the reading group
  // mailing list", "on the on-call rota").
  constexpr std::array<std::string_view, 10> k_seats = {
      "board", "council",  "committee", "panel", "jury",
      "list",  "waitlist", "shortlist", "rota",  "roster"};
  constexpr std::size_t k_body_words = 4;
  if (w + 2 < out.size() && !out[w].value && out[w].text == "on" && out[w + 1].text == "the") {
    for (auto k = w + 2; k < out.size() && k <= w + 1 + k_body_words; ++k) {
      if (!out[k].value && is_listed(k_seats, out[k].text)) {
        return true;
      }
    }
  }
  if (w < out.size() && !out[w].value && (out[w].text == "a" || out[w].text == "an")) {
    ++w;
  }
  return w + 1 < out.size() && !out[w].value && is_listed(k_members, out[w].text) &&
         !out[w + 1].value && (out[w + 1].text == "of" || out[w + 1].text == "to");
}

void switched_as_state(std::vector<Token>& out, const std::unordered_set<std::string>& proper) {
  constexpr std::array<std::string_view, 2> k_switching = {"switched", "changed"};
  const auto plain = [&](std::size_t k) {
    return k < out.size() && !out[k].value && role_of(out[k].text) == Role::none;
  };
  for (std::size_t w = 1; w + 3 < out.size(); ++w) {
    // The kind is a plural noun, maybe after another ("letting agents").
    const std::size_t kind_end = plain(w + 2) && out[w + 2].text.ends_with('s') ? w + 3 : w + 2;
    if (kind_end + 1 >= out.size()) {
      continue;
    }
    const auto& what = out[kind_end + 1];
    const bool named = what.value || proper.contains(what.text) || what.text == "a" ||
                       what.text == "an" || what.text == "the";
    if (out[w - 1].value || !is_listed(k_switching, out[w].text) || !plain(w + 1) ||
        !out[kind_end - 1].text.ends_with('s') || out[kind_end].text != "to" || !named) {
      continue;
    }
    out[kind_end].text = "is";
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(w)); // "switched"
    // The writer's own thing is the thing itself: "We changed banks to …".
    if (out[w - 1].text == "we" || out[w - 1].text == "i") {
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(w) - 1);
    } else if (!out[w - 1].text.ends_with("'s")) {
      out[w - 1].text += "'s";
    }
    return;
  }
}

void read_now_and_habit(std::string_view plain, ClaimTokens& tokens) {
  bool recurring = false;
  bool also = false;
  std::string before;
  const auto words = words_of(plain);
  for (const auto& word : words) {
    tokens.now = tokens.now || word == "now" || word == "instead" || word == "anymore" ||
                 (before == "no" && word == "longer");
    also = also || word == "also" || word == "additionally" || (before == "as" && word == "well");
    const bool day = role_of(word) == Role::date && word.ends_with("day");
    const bool days =
        word.ends_with("days") && role_of(word.substr(0, word.size() - 1)) == Role::date;
    recurring = recurring || days || (day && before == "every");
    before = word;
  }
  tokens.now = tokens.now && !also && (words.empty() || words.back() != "too");
  tokens.habit = recurring && !tokens.now && tokens.subject == std::vector<std::string>{"user"};
}

bool holds_many_at_once(const std::string& stem) {
  // Knowing, liking and doing, having and owning, what a product supports,
  // accepts, offers or works with: each is of many things at once. So is
  // what one uses, when the claim does not say what for ("now uses Jira"
  // after "uses Slack"), where "now tracks issues in Linear" does.
  constexpr std::array<std::string_view, 25> k_verbs = {
      "speaks",  "knows",      "likes",    "loves",      "enjoys",   "plays", "reads",
      "follows", "watches",    "collects", "studies",    "learns",   "has",   "owns",
      "visits",  "attends",    "supports", "accepts",    "includes", "uses",  "contains",
      "offers",  "integrates", "allows",   "subscribes",
  };
  static const auto stems = stems_of(k_verbs);
  return stems.contains(stem);
}

bool names_part_of_day(const std::string& stem) {
  constexpr std::array<std::string_view, 8> k_parts = {
      "mornings", "afternoons", "evenings", "nights", "weekends", "weekdays", "holidays", "noon",
  };
  static const auto stems = stems_of(k_parts);
  return stems.contains(stem);
}

std::string complement_head(const std::vector<Token>& out, std::size_t w,
                            const std::unordered_set<std::string>& proper) {
  // Words that end the phrase: what follows says when, why or where else.
  constexpr std::array<std::string_view, 13> k_phrase_ends = {
      "since", "for",     "from", "until", "at", "in", "on",
      "with",  "because", "and",  "now",   "as", "of"};
  const bool on_the = w + 2 < out.size() && !out[w].value && out[w].text == "on" &&
                      !out[w + 1].value && out[w + 1].text == "the";
  const bool indefinite =
      w + 1 < out.size() && !out[w].value && (out[w].text == "a" || out[w].text == "an");
  if (!on_the && !indefinite) {
    return {};
  }
  std::string head;
  for (auto k = w + (on_the ? 2 : 1);
       k < out.size() && (out[k].value || !is_listed(k_phrase_ends, out[k].text)); ++k) {
    // A name or a value names one thing, not a kind ("a Pixel 7", "a 27-inch Dell").
    head =
        out[k].value || proper.contains(out[k].text) ? std::string() : comparable_stem(out[k].text);
  }
  return head.empty() || !on_the ? head : "on " + head;
}

std::string contrast_as_choice(std::string_view text) {
  // What may follow "not" without a thing passed over: "not only", "not yet".
  constexpr std::array<std::string_view, 12> k_not_a_thing = {
      "only", "just",  "yet",  "always", "necessarily", "even",
      "all",  "every", "sure", "much",   "quite",       "entirely"};
  // A contrast names one thing, in a few words up to the end of its line
  // (or of its parenthesis); a longer tail is a clause.
  constexpr std::size_t k_tail_words = 4;
  // Written after a comma or a semicolon alike, or inside a parenthesis.
  const auto at = std::min({text.find(", not "), text.find("; not "), text.find(" (not ")});
  if (at == std::string_view::npos || at == 0) {
    return std::string(text);
  }
  const bool bracketed = text[at + 1] == '(';
  const auto tail_at = at + std::string_view(", not ").size();
  const auto tail_end =
      std::min(text.find_first_of(bracketed ? ")\n" : ",;\n", tail_at), text.size());
  if (bracketed && (tail_end == text.size() || text[tail_end] != ')')) {
    return std::string(text);
  }
  const auto tail = text.substr(tail_at, tail_end - tail_at);
  const auto first = tail.substr(0, tail.find(' '));
  const auto words = static_cast<std::size_t>(std::count(tail.begin(), tail.end(), ' ')) + 1;
  if (tail.empty() || words > k_tail_words || is_listed(k_not_a_thing, first)) {
    return std::string(text);
  }
  if (bracketed) { // the parenthesis taken off: what follows it goes on
    return std::string(text.substr(0, at)) + " instead of " + std::string(tail) +
           std::string(text.substr(tail_end + 1));
  }
  return std::string(text.substr(0, at)) + " instead of " + std::string(text.substr(tail_at));
}

} // namespace engram::claims::detail
