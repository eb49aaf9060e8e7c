// Numbers as claims say them in words: "one" that counts, the phrases that
// bound a number ("at most 400", "no more than 400") and the limits that
// say the same ("is limited to 400"), read into the tokens values compare
// in. Kept apart from what a value is (token_values.cpp).
#include "claims/token_numbers.hpp"

#include "claims/token_values.hpp"
#include "claims/tokens.hpp"
#include "claims/words.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

namespace engram::claims::detail {

namespace {

// Whether `text` writes "One" inside a name ("a Sonos One", "Xbox One"):
// capitalised after a word, where a sentence would not start.
bool one_in_a_name(std::string_view text) {
  for (auto at = text.find("One"); at != std::string_view::npos; at = text.find("One", at + 1)) {
    const auto before = text.find_last_not_of(' ', at == 0 ? 0 : at - 1);
    const bool after_word = at > 0 && before != std::string_view::npos &&
                            std::isalnum(static_cast<unsigned char>(text[before])) != 0;
    const bool whole =
        at + 3 == text.size() || std::isalpha(static_cast<unsigned char>(text[at + 3])) == 0;
    if (after_word && whole && before + 1 < at) {
      return true;
    }
  }
  return false;
}

// Nouns that, before a number, name one of many: "shard 3" is a thing, as
// web-1 is, where "page 100" measures.
constexpr std::array<std::string_view, 36> k_designators = {
    "shard", "node",     "server",    "host",    "rule",     "step",     "phase",
    "room",  "floor",    "partition", "replica", "worker",   "slot",     "rack",
    "item",  "issue",    "ticket",    "pr",      "cluster",  "building", "gate",
    "lane",  "terminal", "desk",      "chapter", "section",  "part",     "task",
    "bug",   "case",     "bay",       "pod",     "instance", "number",
};

// Whether `text` writes the designator `word` as the name of something with
// versions: before a version written with its "v" ("server v2"), or, for
// "node", capitalised after a word, where a sentence would not start, as
// the runtime Node.js is ("Use Node 22"), which a cluster's node 3 is not.
// Its number is then a value of its own.
bool names_a_version(std::string_view text, std::string_view word) {
  const std::string lowered = text::lower(text);
  for (auto at = lowered.find(word); at != std::string::npos; at = lowered.find(word, at + 1)) {
    const bool starts = at == 0 || std::isalnum(static_cast<unsigned char>(lowered[at - 1])) == 0;
    auto next = at + word.size();
    if (!starts || next >= text.size() || text[next] != ' ') {
      continue;
    }
    next = text.find_first_not_of(' ', next);
    if (next == std::string_view::npos) {
      continue;
    }
    const auto digit_at = [&](std::size_t k) {
      return k < text.size() && std::isdigit(static_cast<unsigned char>(text[k])) != 0;
    };
    const bool v_version = (text[next] == 'v' || text[next] == 'V') && digit_at(next + 1);
    const auto before = at == 0 ? std::string_view::npos : text.find_last_not_of(' ', at - 1);
    const bool after_word = before != std::string_view::npos &&
                            std::isalnum(static_cast<unsigned char>(text[before])) != 0;
    const bool runtime = word == "node" && text.substr(at, 4) == "Node" && after_word;
    if (v_version || (runtime && digit_at(next))) {
      return true;
    }
  }
  return false;
}

// Each designator before a number joined with it into the thing it names:
// "shard 3" is shard-3, one of many (see names_a_version for the exceptions).
void designate_numbers(std::vector<Token>& tokens, std::string_view text) {
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    auto& a = tokens[i];
    const auto& b = tokens[i + 1];
    if (!a.value && b.value && is_plain_number(b.text) && is_listed(k_designators, a.text) &&
        !names_a_version(text, a.text)) {
      a = {a.text + "-" + b.text, true, b.boundary, a.opener};
      tokens.erase(tokens.begin() + static_cast<long>(i) + 1);
    }
  }
}

// Reads "went up to" and "went down to" as the one word of change each says:
// "The gym membership went up to £42" says what "… rose to £42" does.
void went_up_as_rose(std::vector<Token>& out) {
  constexpr std::array<std::string_view, 5> k_go = {"go", "goes", "going", "gone", "went"};
  for (std::size_t w = 0; w + 2 < out.size(); ++w) {
    const auto& way = out[w + 1].text;
    if (!out[w].value && is_listed(k_go, out[w].text) && !out[w + 1].value &&
        (way == "up" || way == "down") && out[w + 2].text == "to") {
      out[w].text = way == "up" ? "rose" : "fell";
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(w) + 1);
    }
  }
}

} // namespace

void one_as_number(std::vector<Token>& tokens, std::string_view text) {
  if (one_in_a_name(text)) {
    return;
  }
  // Words before "one" that make it a pronoun ("the one", "no one", "which
  // one"), and nouns after it that make an idiom ("one thing to check").
  constexpr std::array<std::string_view, 13> k_pronoun_before = {
      "the", "this", "that", "which", "each", "every",   "no",
      "any", "some", "a",    "an",    "only", "another",
  };
  constexpr std::array<std::string_view, 5> k_idioms = {"thing", "things", "way", "point",
                                                        "another"};
  for (std::size_t w = 0; w + 1 < tokens.size(); ++w) {
    const auto& next = tokens[w + 1];
    const bool counts =
        !tokens[w].value && tokens[w].text == "one" && !next.value && !is_stopword(next.text) &&
        !is_listed(k_idioms, next.text) &&
        (w == 0 || tokens[w - 1].value || !is_listed(k_pronoun_before, tokens[w - 1].text));
    if (counts) {
      tokens[w] = {"1", true, tokens[w].boundary, tokens[w].opener};
    }
  }
}

void bounds_as_one(std::vector<Token>& tokens) {
  // "Went up to £42" is a change, not a bound.
  went_up_as_rose(tokens);
  // Longest first: "no more than" before "more than".
  static const std::array<std::pair<std::vector<std::string_view>, std::string_view>, 17> k_bounds{{
      {{"no", "more", "than"}, "under"},
      {{"not", "more", "than"}, "under"},
      {{"no", "longer", "than"}, "under"},
      {{"a", "maximum", "of"}, "under"},
      {{"no", "less", "than"}, "above"},
      {{"no", "fewer", "than"}, "above"},
      {{"a", "minimum", "of"}, "above"},
      {{"up", "to"}, "under"},
      {{"at", "most"}, "under"},
      {{"less", "than"}, "under"},
      {{"fewer", "than"}, "under"},
      {{"at", "least"}, "above"},
      {{"more", "than"}, "above"},
      {{"below"}, "under"},
      {{"over"}, "above"},
      {{"max"}, "under"},
      {{"min"}, "above"},
  }};
  for (std::size_t w = 0; w < tokens.size(); ++w) {
    for (const auto& [words, bound] : k_bounds) {
      const auto end = w + words.size();
      const bool matches =
          end < tokens.size() && tokens[end].value && is_quantity(tokens[end].text) &&
          std::equal(
              words.begin(), words.end(), tokens.begin() + static_cast<long>(w),
              [](std::string_view word, const Token& t) { return !t.value && t.text == word; });
      if (matches) {
        tokens.erase(tokens.begin() + static_cast<long>(w) + 1,
                     tokens.begin() + static_cast<long>(end));
        tokens[w].text = bound;
        break;
      }
    }
  }
}

void limit_as_bound(std::vector<Token>& tokens) {
  static const std::array<std::pair<std::string_view, std::string_view>, 3> k_limits{{
      {"limited", "to"},
      {"capped", "at"},
      {"restricted", "to"},
  }};
  constexpr std::array<std::string_view, 2> k_copulas = {"is", "are"};
  const auto is = [&](std::size_t w, std::string_view word) {
    return !tokens[w].value && tokens[w].text == word;
  };
  for (std::size_t w = 1; w + 2 < tokens.size(); ++w) {
    const bool limit = std::any_of(k_limits.begin(), k_limits.end(),
                                   [&](const auto& words) {
                                     return is(w, words.first) && is(w + 1, words.second);
                                   }) &&
                       tokens[w + 2].value && is_quantity(tokens[w + 2].text);
    if (!limit) {
      continue;
    }
    auto copula = w - 1;
    while (copula > 0 && !tokens[copula].value && is_listed(k_bound_adverbs, tokens[copula].text)) {
      --copula;
    }
    if (!tokens[copula].value && is_listed(k_copulas, tokens[copula].text)) {
      tokens[copula].text = "can";
      tokens[w].text = "be";
      tokens[w + 1].text = "under";
    }
  }
}

void clock_times(std::vector<Token>& tokens) {
  for (std::size_t w = 0; w + 1 < tokens.size(); ++w) {
    const auto& suffix = tokens[w + 1];
    if (!tokens[w].value || suffix.value || (suffix.text != "am" && suffix.text != "pm")) {
      continue;
    }
    if (auto time = clock_time(tokens[w].text, suffix.text); !time.empty()) {
      tokens[w].text = std::move(time);
      tokens[w].boundary = suffix.boundary;
      tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(w) + 1);
    }
  }
}

void onward_as_bound(std::vector<Token>& tokens) {
  constexpr std::array<std::string_view, 7> k_onward = {"later", "newer",   "higher", "above",
                                                        "more",  "greater", "up"};
  const auto is_number = [](std::string_view text) {
    return !text.empty() && text.front() >= '0' && text.front() <= '9' &&
           text.find_first_not_of("0123456789.") == std::string_view::npos;
  };
  for (std::size_t w = 0; w < tokens.size(); ++w) {
    auto& value = tokens[w];
    const bool plus = value.value && value.text.size() > 1 && value.text.back() == '+' &&
                      is_number(std::string_view(value.text).substr(0, value.text.size() - 1));
    const bool said = value.value && is_number(value.text) && w + 2 < tokens.size() &&
                      !tokens[w + 1].value &&
                      (tokens[w + 1].text == "or" || tokens[w + 1].text == "and") &&
                      !tokens[w + 2].value && is_listed(k_onward, tokens[w + 2].text);
    if (!plus && !said) {
      continue;
    }
    if (plus) {
      value.text.pop_back();
    } else {
      value.boundary = tokens[w + 2].boundary;
      tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(w) + 1,
                   tokens.begin() + static_cast<std::ptrdiff_t>(w) + 3);
    }
    tokens.insert(tokens.begin() + static_cast<std::ptrdiff_t>(w), Token{"above", false, false});
    ++w; // past the value
  }
}

// A number said "percent" (or "per cent") is the percentage written with
// its sign: "99.9 percent" is "99.9%".
void percent_as_sign(std::vector<Token>& tokens) {
  for (std::size_t w = 0; w + 1 < tokens.size(); ++w) {
    if (!tokens[w].value || !is_plain_number(tokens[w].text) || tokens[w + 1].value) {
      continue;
    }
    const bool percent = tokens[w + 1].text == "percent";
    const bool per_cent = tokens[w + 1].text == "per" && w + 2 < tokens.size() &&
                          !tokens[w + 2].value && tokens[w + 2].text == "cent";
    if (!percent && !per_cent) {
      continue;
    }
    const std::size_t words = per_cent ? 2 : 1;
    tokens[w].text = canonical_value(tokens[w].text + "%");
    tokens[w].boundary = tokens[w + words].boundary;
    tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(w + 1),
                 tokens.begin() + static_cast<std::ptrdiff_t>(w + 1 + words));
  }
}

void read_numbers(std::vector<Token>& tokens, std::string_view text) {
  clock_times(tokens);
  percent_as_sign(tokens);
  one_as_number(tokens, text);
  join_numbers(tokens);
  designate_numbers(tokens, text);
  onward_as_bound(tokens);
  bounds_as_one(tokens);
  limit_as_bound(tokens);
}

} // namespace engram::claims::detail
