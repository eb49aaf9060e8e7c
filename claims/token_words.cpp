// Words and phrases read as one thing before a claim is compared: irregular
// verbs, units, links, names, ordinals, negations inside a word or a phrase,
// and the contrast of a choice. Private to claims/ (token_words.hpp).
#include "claims/token_words.hpp"

#include "claims/token_values.hpp"
#include "claims/words.hpp"
#include "store/tags.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace engram::claims::detail {

// Irregular past forms, as their verbs: "took" says what "takes" does.
const std::unordered_map<std::string_view, std::string_view>& irregular_verbs() {
  static const std::unordered_map<std::string_view, std::string_view> k_verbs = {
      {"took", "take"},        {"taken", "take"},    {"ran", "run"},
      {"went", "go"},          {"gone", "go"},       {"made", "make"},
      {"built", "build"},      {"sent", "send"},     {"kept", "keep"},
      {"held", "hold"},        {"got", "get"},       {"gotten", "get"},
      {"gave", "give"},        {"given", "give"},    {"wrote", "write"},
      {"written", "write"},    {"broke", "break"},   {"broken", "break"},
      {"began", "begin"},      {"begun", "begin"},   {"found", "find"},
      {"left", "leave"},       {"paid", "pay"},      {"said", "say"},
      {"told", "tell"},        {"brought", "bring"}, {"bought", "buy"},
      {"chose", "choose"},     {"chosen", "choose"}, {"drove", "drive"},
      {"driven", "drive"},     {"fell", "fall"},     {"felt", "feel"},
      {"led", "lead"},         {"lost", "lose"},     {"meant", "mean"},
      {"met", "meet"},         {"saw", "see"},       {"seen", "see"},
      {"sold", "sell"},        {"shown", "show"},    {"spent", "spend"},
      {"stood", "stand"},      {"won", "win"},       {"ate", "eat"},
      {"grew", "grow"},        {"knew", "know"},     {"known", "know"},
      {"shot", "shoot"},       {"hid", "hide"},      {"hidden", "hide"},
      {"froze", "freeze"},     {"frozen", "freeze"}, {"rode", "ride"},
      {"spoke", "speak"},      {"spoken", "speak"},  {"stole", "steal"},
      {"threw", "throw"},      {"thrown", "throw"},  {"woke", "wake"},
      {"caught", "catch"},     {"taught", "teach"},  {"thought", "think"},
      {"fought", "fight"},     {"sought", "seek"},   {"understood", "understand"},
      {"slept", "sleep"},      {"swept", "sweep"},   {"lent", "lend"},
      {"bent", "bend"},        {"dealt", "deal"},    {"hung", "hang"},
      {"struck", "strike"},    {"stuck", "stick"},   {"forgot", "forget"},
      {"forgotten", "forget"}, {"became", "become"}, {"rang", "ring"},
      {"sang", "sing"},
  };
  return k_verbs;
}

// A unit's abbreviation after a value as its word: "40 min" says "40 minutes".
std::string unit_word(std::string word) {
  static const std::unordered_map<std::string_view, std::string_view> k_units = {
      {"min", "minute"},  {"mins", "minute"}, {"sec", "second"},
      {"secs", "second"}, {"hr", "hour"},     {"hrs", "hour"},
  };
  const auto found = k_units.find(word);
  return found == k_units.end() ? word : std::string(found->second);
}

void drop_ending(std::string& word) {
  constexpr std::array<std::string_view, 4> k_endings = {"'s", "'ing", "'ed", "'d"};
  const auto at = word.rfind('\'');
  if (at != std::string::npos && at > 0 &&
      is_listed(k_endings, std::string_view(word).substr(at))) {
    word.resize(at);
  }
}

// `text` with each Markdown link `[words](target)` as its words: the link is
// markup, and a claim with and without it says the same.
std::string without_link_targets(std::string_view text, std::vector<std::string>* targets) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ']' && i + 1 < text.size() && text[i + 1] == '(') {
      const auto close = text.find(')', i + 2);
      if (close != std::string_view::npos && out.find('[') != std::string::npos) {
        out.erase(out.rfind('['), 1);
        if (targets != nullptr) {
          targets->emplace_back(text.substr(i + 2, close - i - 2));
        }
        i = close;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// Ordinals, which name one of a series ("the second retry") as a number does.
constexpr std::array<std::string_view, 10> k_ordinals = {
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
};

// Words after which an ordinal names one of a series.
constexpr std::array<std::string_view, 9> k_series_determiners = {
    "the", "a", "an", "each", "every", "our", "your", "its", "their",
};

// The ordinal at `w` as a value ("2nd"), or "": one that opens the claim or
// follows a determiner, before a word ("The second retry waits"). "1 second"
// is a unit, and "Run the linter first" an adverb. "Last" names one of a
// series as "first" does ("on the last Friday of each month").
std::string ordinal_value(const std::vector<Token>& out, std::size_t w) {
  const auto* found = std::find(k_ordinals.begin(), k_ordinals.end(), out[w].text);
  const bool last = out[w].text == "last";
  if ((found == k_ordinals.end() && !last) || w + 1 >= out.size() || out[w + 1].value ||
      (w > 0 && (out[w - 1].value || !is_listed(k_series_determiners, out[w - 1].text)))) {
    return {};
  }
  if (last) {
    return "last";
  }
  const auto n = static_cast<int>(found - k_ordinals.begin()) + 1;
  return std::to_string(n) + (n == 1 ? "st" : n == 2 ? "nd" : n == 3 ? "rd" : "th");
}

// Reads the negations written inside a word or a phrase as the "not" they
// are: "used to" that says a habit ended ("The job used to send a digest":
// it no longer does; "is used to send" and "got used to" say something
// else), a verb that ends what follows it ("quit smoking", "stopped using
// Slack": no longer smokes, no longer uses it; "Stop using Yarn": do not
// use it), and "dislikes" or
// "disallows" ("not likes", "not allows").
void mark_inner_negations(std::vector<Token>& out) {
  constexpr std::array<std::string_view, 11> k_before_use = {
      "is", "are", "was", "were", "be", "been", "being", "get", "gets", "got", "getting"};
  constexpr std::array<std::string_view, 7> k_ending = {"quit",    "quits", "quitting", "stop",
                                                        "stopped", "stops", "ceased"};
  std::vector<Token> marked;
  marked.reserve(out.size() + 1);
  for (std::size_t w = 0; w < out.size(); ++w) {
    auto& token = out[w];
    const bool ending = w + 1 < out.size() && !out[w + 1].value && out[w + 1].text.ends_with("ing");
    if (!token.value && token.text == "used" && w + 1 < out.size() && out[w + 1].text == "to" &&
        (marked.empty() || !is_listed(k_before_use, marked.back().text))) {
      token.text = "not";
    } else if (!token.value && ending && is_listed(k_ending, token.text)) {
      token.text = "not";
    } else if (!token.value &&
               (token.text.starts_with("dislike") || token.text.starts_with("disallow"))) {
      marked.push_back({"not", false, false, token.opener});
      token.text.erase(0, 3);
      token.opener = false;
    }
    marked.push_back(std::move(token));
  }
  out = std::move(marked);
}

// Where the contrast of a choice opens in `ordered` from `from` on
// ("instead of", "rather than", "over" after a word of preferring), and how
// many tokens it takes; {npos, 0} when there is none.
std::pair<std::size_t, std::size_t> contrast_of(const std::vector<Token>& ordered,
                                                std::size_t from) {
  constexpr std::array<std::string_view, 7> k_preferring = {
      "prefer", "prefers", "preferred", "favour", "favor", "choose", "pick"};
  bool preferring = false;
  for (std::size_t w = from; w < ordered.size(); ++w) {
    const auto& text = ordered[w].text;
    const bool next_is = w + 1 < ordered.size() && !ordered[w].value;
    // ordered_tokens wrote "rather than" as "instead of".
    if (next_is && text == "instead" && ordered[w + 1].text == "of") {
      return {w, 2};
    }
    if (!ordered[w].value && text == "over" && preferring) {
      return {w, 1};
    }
    preferring = preferring || (!ordered[w].value && is_listed(k_preferring, text));
  }
  return {std::string::npos, 0};
}

std::size_t request_opener(const std::vector<Token>& out) {
  constexpr std::array<std::string_view, 6> k_asking = {"asked",  "asks", "wants",
                                                        "wanted", "told", "reminded"};
  // The one asking is named in a few words at most ("Lena", "The user").
  constexpr std::size_t k_asker_words = 3;
  const auto is = [&](std::size_t at, std::string_view word) {
    return at < out.size() && !out[at].value && out[at].text == word;
  };
  for (std::size_t at = 1; at <= k_asker_words && at < out.size(); ++at) {
    if (!out[at].value && is_listed(k_asking, out[at].text) &&
        (is(at + 1, "me") || is(at + 1, "us")) && is(at + 2, "to") && at + 3 < out.size()) {
      return at + 3;
    }
  }
  return 0;
}

void as_instead_of(std::vector<Token>& out) {
  // "would rather X than Y" states the choice "prefers X over Y"; a light
  // verb right after it ("would rather get a voice note") says nothing more.
  for (std::size_t w = 0; w + 2 < out.size(); ++w) {
    if (out[w].value || out[w].text != "would" || out[w + 1].text != "rather") {
      continue;
    }
    const auto than = std::find_if(out.begin() + static_cast<std::ptrdiff_t>(w + 2), out.end(),
                                   [](const Token& t) { return !t.value && t.text == "than"; });
    if (than == out.end()) {
      break;
    }
    than->text = "over";
    out[w + 1].text = "prefers";
    const bool light = !out[w + 2].value && (out[w + 2].text == "get" || out[w + 2].text == "have");
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(w + 2),
              out.begin() + static_cast<std::ptrdiff_t>(light ? w + 3 : w + 2));
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(w));
  }
  for (std::size_t w = 0; w + 1 < out.size(); ++w) {
    if (!out[w].value && out[w].text == "rather" && out[w + 1].text == "than") {
      out[w].text = "instead";
      out[w + 1].text = "of";
    }
  }
}

namespace {

// Verbs that say a thing changed from one value to another ("switched from
// Jira to Linear", "moved the standup from 09:00 to 10:00").
constexpr std::array<std::string_view, 16> k_changing = {
    "switched",  "switch",  "moved",        "move",        "changed",    "change",
    "migrated",  "migrate", "upgraded",     "upgrade",     "downgraded", "shifted",
    "converted", "convert", "transitioned", "rescheduled",
};

// Verbs that put one thing in another's place, named first ("replaced the
// Pixel 6 with a Pixel 8", "swapped Webpack for Vite").
constexpr std::array<std::string_view, 8> k_replacing = {
    "replaced", "replace", "swapped", "swap", "traded", "trade", "exchanged", "exchange",
};

// Verbs that leave a thing for what the claim goes on to say ("left Acme and
// now works at Globex").
constexpr std::array<std::string_view, 4> k_leaving = {"left", "leaves", "quit", "quits"};

// Tokens a change may put between its verb and "from" (the thing changed),
// and between "from" and "to" (the value left): more is a clause of its own.
constexpr std::size_t k_changed_words = 3;
constexpr std::size_t k_left_words = 4;

// The first of `words` at or after `from`, within `reach` tokens; npos when none.
template <std::size_t N>
std::size_t word_within(const std::vector<Token>& out, std::size_t from, std::size_t reach,
                        const std::array<std::string_view, N>& words) {
  for (std::size_t w = from; w < out.size() && w < from + reach; ++w) {
    if (!out[w].value && is_listed(words, out[w].text)) {
      return w;
    }
  }
  return std::string::npos;
}

// `out` with the tokens [left, left_end) moved after a new "instead of" at
// the end, and those in [cut, cut_end) dropped (the "from" and "to").
std::vector<Token> with_left_last(const std::vector<Token>& out, std::size_t left,
                                  std::size_t left_end, std::size_t cut, std::size_t cut_end) {
  std::vector<Token> moved;
  for (std::size_t w = 0; w < out.size(); ++w) {
    if ((w < left || w >= left_end) && (w < cut || w >= cut_end)) {
      moved.push_back(out[w]);
    }
  }
  moved.push_back(Token{"instead", false, false, false});
  moved.push_back(Token{"of", false, false, false});
  moved.insert(moved.end(), out.begin() + static_cast<std::ptrdiff_t>(left),
               out.begin() + static_cast<std::ptrdiff_t>(left_end));
  return moved;
}

} // namespace

bool change_as_choice(std::vector<Token>& out) {
  constexpr std::array<std::string_view, 1> k_from = {"from"};
  constexpr std::array<std::string_view, 1> k_to = {"to"};
  constexpr std::array<std::string_view, 2> k_with = {"with", "for"};
  constexpr std::array<std::string_view, 1> k_instead = {"instead"};
  constexpr std::array<std::string_view, 1> k_and = {"and"};
  if (word_within(out, 0, out.size(), k_instead) != std::string::npos) {
    return false; // a choice written already
  }
  for (std::size_t v = 0; v < out.size(); ++v) {
    if (out[v].value) {
      continue;
    }
    if (is_listed(k_changing, out[v].text)) {
      const auto from = word_within(out, v + 1, k_changed_words + 1, k_from);
      const auto to = from == std::string::npos ? std::string::npos
                                                : word_within(out, from + 2, k_left_words, k_to);
      if (to != std::string::npos && to + 1 < out.size()) {
        out = with_left_last(out, from + 1, to, from, to + 1);
        return true;
      }
    } else if (is_listed(k_replacing, out[v].text)) {
      const auto with = word_within(out, v + 2, k_left_words, k_with);
      if (with != std::string::npos && with + 1 < out.size()) {
        out = with_left_last(out, v + 1, with, with, with + 1);
        return true;
      }
    } else if (is_listed(k_leaving, out[v].text)) {
      // "left Acme and now works at Globex" is "works at Globex instead of
      // Acme"; without "now" the "and" may join two things left.
      const auto joined = word_within(out, v + 2, k_left_words, k_and);
      if (joined != std::string::npos && joined + 2 < out.size() && !out[joined + 1].value &&
          out[joined + 1].text == "now") {
        out = with_left_last(out, v + 1, joined, v, joined + 2);
        return true;
      }
    }
  }
  return false;
}

namespace {

// Where the words of "X should stay Y" or "X can be under N" that make it
// "Keep X Y" end, when a modal verb is at `at`; `at` when there is none.
std::size_t keeping_end(const std::vector<Token>& out, std::size_t at) {
  constexpr std::array<std::string_view, 2> k_modal = {"should", "must"};
  constexpr std::array<std::string_view, 2> k_staying = {"stay", "remain"};
  // Only a bound makes "be" a keeping: "can be up to 400 words" is a limit,
  // where "should be concise" is not said of a number.
  constexpr std::array<std::string_view, 4> k_bounding = {"should", "must", "can", "may"};
  const auto word = [&](std::size_t w) { return w < out.size() && !out[w].value; };
  if (!word(at)) {
    return at;
  }
  if (is_listed(k_modal, out[at].text) && word(at + 1) && is_listed(k_staying, out[at + 1].text)) {
    return at + 2;
  }
  auto be = at + 1;
  while (word(be) && is_listed(k_bound_adverbs, out[be].text)) {
    ++be;
  }
  const bool bounded = is_listed(k_bounding, out[at].text) && word(be) && out[be].text == "be" &&
                       word(be + 1) &&
                       (out[be + 1].text == "under" || out[be + 1].text == "above") &&
                       be + 2 < out.size() && out[be + 2].value;
  return bounded ? be + 1 : at;
}

} // namespace

void stay_as_keep(std::vector<Token>& out) {
  // What is kept is named in a few words ("Replies", "The summary email").
  constexpr std::size_t k_kept_words = 4;
  for (std::size_t at = 1; at <= k_kept_words && at + 2 < out.size(); ++at) {
    if (const auto end = keeping_end(out, at); end != at) {
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(at),
                out.begin() + static_cast<std::ptrdiff_t>(end));
      out.insert(out.begin(), Token{"keep", false, false, false});
      return;
    }
  }
}

bool names_a_place(std::string_view value) {
  if (value.find("://") != std::string_view::npos || value.starts_with('/') ||
      value.starts_with('~')) {
    return true;
  }
  const auto dot = value.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == value.size()) {
    return false;
  }
  const auto last = value.substr(dot + 1);
  const bool numeric = last.find_first_not_of("0123456789") == std::string_view::npos;
  return numeric ? std::count(value.begin(), value.end(), '.') == 3 &&
                       value.find_first_not_of("0123456789.") == std::string_view::npos
                 : last.find_first_not_of("abcdefghijklmnopqrstuvwxyz") == std::string_view::npos;
}

void compound_heads(std::vector<Token>& out) {
  // The word before names the thing; the head adds nothing to it.
  static const std::array<std::pair<std::string_view, std::string_view>, 7> k_compounds{{
      {"email", "address"},
      {"e-mail", "address"},
      {"ip", "address"},
      {"phone", "number"},
      {"mobile", "number"},
      {"cell", "number"},
      {"telephone", "number"},
  }};
  // A thing's address, given as a place, is where the thing is: "NAS
  // address: 192.168.1.20" says what "The NAS is at 192.168.1.20" does.
  const bool place = std::any_of(out.begin(), out.end(),
                                 [](const Token& t) { return t.value && names_a_place(t.text); });
  for (std::size_t w = 1; w < out.size(); ++w) {
    if (out[w - 1].value || out[w].value) {
      continue;
    }
    const std::pair<std::string_view, std::string_view> pair(out[w - 1].text, out[w].text);
    // "version" right before a version is its "v": "Node version: 18" is "Node: 18".
    const bool version = out[w].text == "version" && w + 1 < out.size() && out[w + 1].value;
    if (std::find(k_compounds.begin(), k_compounds.end(), pair) != k_compounds.end() ||
        (place && out[w].text == "address") || version) {
      // A head that ended a label ("Email address:") leaves the word before to end it.
      out[w - 1].boundary = out[w - 1].boundary || out[w].boundary;
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(w));
    }
  }
}

// Whether `ordered` says on what day something is closed: a word of
// closing, then "on" a day, and no "until" or "from" that would make the day
// a closure's one end ("closed until January 5").
bool says_closure(const std::vector<Token>& ordered) {
  constexpr std::array<std::string_view, 4> k_closing = {"closed", "shut", "holiday", "holidays"};
  constexpr std::array<std::string_view, 5> k_ends = {"until", "till", "through", "from", "since"};
  bool closing = false;
  bool on = false;
  for (const auto& token : ordered) {
    if (token.value) {
      continue;
    }
    if (detail::is_listed(k_ends, token.text)) {
      return false;
    }
    closing = closing || detail::is_listed(k_closing, token.text);
    on = on || (closing && token.text == "on");
  }
  return on;
}

std::string time_clause_last(std::string_view text) {
  constexpr std::array<std::string_view, 12> k_openers = {
      "since ",    "as of ",     "after ", "before ", "until ", "from ",
      "starting ", "effective ", "for ",   "in ",     "on ",    "during "};
  const auto start = std::min(text.find_first_not_of("-*+ \t"), text.size());
  const auto comma = text.find(", ", start);
  std::string first;
  for (std::size_t i = start; i < std::min(comma, start + 12) && i < text.size(); ++i) {
    first += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
  }
  const bool opens = std::any_of(k_openers.begin(), k_openers.end(), [&](std::string_view opener) {
    return first.starts_with(opener);
  });
  // A clause of a few words only: a longer one is a sentence of its own.
  constexpr std::size_t k_clause_words = 6;
  if (!opens || comma == std::string_view::npos ||
      static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(start),
                                          text.begin() + static_cast<std::ptrdiff_t>(comma),
                                          ' ')) >= k_clause_words) {
    return std::string(text);
  }
  return std::string(text.substr(0, start)) + std::string(text.substr(comma + 2)) + " " +
         std::string(text.substr(start, comma - start));
}

// Words that agents' notes and instructions use for one another, as the one
// word each is read as: "Always answer in British English" is the
// instruction "Always reply in British English". Only words that mean the
// same in every sense a memory uses them: a near word ("quick" for "fast")
// could hide an update that changes it.
const std::unordered_map<std::string_view, std::string_view>& same_words() {
  static const std::unordered_map<std::string_view, std::string_view> k_same = {
      {"reply", "answer"},     {"replies", "answer"},    {"replied", "answer"},
      {"replying", "answer"},  {"respond", "answer"},    {"responds", "answer"},
      {"responded", "answer"}, {"responding", "answer"}, {"response", "answer"},
      {"responses", "answer"}, {"called", "named"},      {"begin", "start"},
      {"begins", "start"},     {"began", "start"},       {"begun", "start"},
      {"beginning", "start"},
  };
  return k_same;
}

std::string comparable_stem(const std::string& word) {
  // The word another word stands for, else an irregular verb's regular form.
  std::string read = claims::american_spelling(word);
  if (const auto same = same_words().find(read); same != same_words().end()) {
    read = same->second;
  } else if (const auto irregular = detail::irregular_verbs().find(word);
             irregular != detail::irregular_verbs().end()) {
    read = irregular->second;
  }
  auto stem = store::canonical_tag(read);
  if (stem.size() > 3 && stem.ends_with('s') && !stem.ends_with("ss") && !stem.ends_with("us") &&
      !stem.ends_with("is")) {
    stem.pop_back();
  }
  return stem;
}

} // namespace engram::claims::detail
