// Tokenising for comparison. Values are kept whole and unstemmed ("v1.4.2" is
// one value, "1.4.2" the same one) because a changed value is what makes an
// update; words are stemmed with the same Snowball stemmer tags use, so
// "returns" and "returning" agree.
#include "claims/tokens.hpp"

#include "claims/alike.hpp"
#include "claims/normalise.hpp"
#include "claims/proper_words.hpp"
#include "claims/relocation.hpp"
#include "claims/stamp.hpp"
#include "claims/subject.hpp"
#include "claims/token_idioms.hpp"
#include "claims/token_numbers.hpp"
#include "claims/token_quotes.hpp"
#include "claims/token_reason.hpp"
#include "claims/token_roles.hpp"
#include "claims/token_speech.hpp"
#include "claims/token_values.hpp"
#include "claims/token_words.hpp"
#include "claims/words.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>

namespace engram::claims {

using detail::role_of;

namespace {

// Sorts and removes repeats.
template <typename T> void sort_unique(std::vector<T>& list) {
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
}

// Words that say how often: the values of a schedule.
constexpr std::array<std::string_view, 10> k_frequencies = {
    "hourly",  "daily",     "nightly", "weekly",   "fortnightly",
    "monthly", "quarterly", "yearly",  "annually", "biweekly",
};

// Words after which "on" is a switch's position, not a preposition.
constexpr std::array<std::string_view, 12> k_switch_words = {
    "mode", "flag", "switch", "turned", "turn", "left", "leave", "kept", "keep", "is", "are", "set",
};

// Words that open a noun phrase: "on" before one is a preposition.
constexpr std::array<std::string_view, 10> k_noun_openers = {
    "the", "a", "an", "my", "our", "your", "his", "her", "their", "its",
};

// Whether the word at `w` is written as a common noun is: after a word
// that opens a noun phrase ("a flat", "the mornings"), or plural ("threads").
bool written_common(const std::vector<Token>& out, std::size_t w) {
  const std::string_view word = out[w].text;
  const bool plural = word.size() > 3 && word.ends_with('s') && !word.ends_with("ss") &&
                      !word.ends_with("us") && !word.ends_with("is") && !word.ends_with("'s");
  return !out[w].value && (plural || (w > 0 && !out[w - 1].value &&
                                      detail::is_listed(k_noun_openers, out[w - 1].text)));
}

// The value a word stands for, or "": a date word, true or false, a switch's
// position (off; "on" is one only where it follows a switch), a schedule.
std::string value_word(const std::string& word, Role role) {
  const auto singular = word.ends_with("days") ? word.substr(0, word.size() - 1) : word;
  const auto singular_role = singular.size() == word.size() ? role : role_of(singular);
  if (singular_role == Role::date || word == "true" || word == "false") {
    return singular; // "on Fridays" and "on Friday" name the same day
  }
  // A switch has two values, whatever the verb's form: "enable retries" and
  // "retries are enabled" say the same, "disable retries" the opposite.
  if (role == Role::enabling) {
    return "enabled";
  }
  if (role == Role::disabling) {
    return "disabled";
  }
  if (word == "off" || detail::is_listed(k_frequencies, word)) {
    return word;
  }
  return {};
}

// Turns each word token that stands for a value (see value_word; "on" does
// after a switch word or at the end; see ordinal_value) into a value token.
void take_value_words(std::vector<Token>& out) {
  for (std::size_t w = 0; w < out.size(); ++w) {
    if (!out[w].value) {
      auto value = detail::is_month_may(out, w) ? std::string("may")
                                                : value_word(out[w].text, role_of(out[w].text));
      if (value.empty()) {
        value = detail::ordinal_value(out, w);
      }
      // "from now on" says since when, not that anything is switched on.
      const bool from_now = w >= 2 && out[w - 1].text == "now" && out[w - 2].text == "from";
      // "is on the data team", "is on 18", "is on Fridays": where or when,
      // not a switch turned on; after a copula, nor is "are on Rails 7.0",
      // where "is on for staging" is.
      const bool copula = w > 0 && (out[w - 1].text == "is" || out[w - 1].text == "are");
      const bool switched_on =
          out[w].text == "on" && !from_now &&
          (w + 1 == out.size() ||
           (w > 0 && !out[w - 1].value && detail::is_listed(k_switch_words, out[w - 1].text) &&
            !out[w + 1].value && !detail::is_listed(k_noun_openers, out[w + 1].text) &&
            (!copula || is_stopword(out[w + 1].text)) &&
            value_word(out[w + 1].text, role_of(out[w + 1].text)).empty() &&
            !detail::is_month_may(out, w + 1)));
      if (switched_on) {
        value = "on";
      }
      if (!value.empty()) {
        out[w] = {std::move(value), true, out[w].boundary, out[w].opener};
      }
    }
  }
}

// A day of a month written as an ordinal is the day's number: "March 5th"
// and "the 5th of March" say "March 5". Elsewhere an ordinal stays one:
// "the 2nd retry" is "the second retry", not a retry and the number 2.
void days_of_months(std::vector<Token>& out) {
  const auto month = [&](std::size_t at) {
    return at < out.size() && role_of(out[at].text) == Role::date;
  };
  for (std::size_t w = 0; w < out.size(); ++w) {
    const auto suffix = out[w].value ? detail::ordinal_suffix(out[w].text) : 0;
    const bool day = (w > 0 && month(w - 1)) || month(w + 1) ||
                     (w + 1 < out.size() && out[w + 1].text == "of" && month(w + 2));
    if (suffix != 0 && day) {
      out[w].text.resize(out[w].text.size() - suffix);
    }
  }
}

// The tokens of folded text in order: quoted values whole, a number with its
// unit split ("16gb" is the value 16 and the word gb, as "16 GB" is), every
// other token split into words.
std::vector<Token> ordered_tokens(std::string_view plain) {
  const std::string folded = fold(plain, KeepBackticks::yes);
  std::vector<Token> out;
  std::string_view currency; // a symbol written before the amount it is of
  std::size_t i = 0;
  while (i < folded.size()) {
    const char c = folded[i];
    if (c == ' ') {
      ++i;
      continue;
    }
    if (c == '`' || c == '"' || c == '\'') {
      if (const auto after = detail::take_quoted(folded, i, out); after != std::string::npos) {
        i = after;
        continue;
      }
    }
    auto end = i + 1;
    while (end < folded.size() && folded[end] != ' ' && folded[end] != '`' && folded[end] != '"') {
      ++end;
    }
    const auto raw = std::string_view(folded).substr(i, end - i);
    const auto token = detail::trim_token(raw);
    i = end;
    // "=", arrows and dashes between words separate a label from its value.
    if (raw == "=" || raw == "->" || raw == "\xE2\x86\x92" || raw == "\xE2\x80\x94" ||
        raw == "\xE2\x80\x93" || raw == "-") {
      if (!out.empty()) {
        out.back().boundary = true;
      }
      continue;
    }
    if (token.empty()) {
      continue;
    }
    // A currency symbol written apart from its amount is the amount's, in
    // the form "€600" is ("600 €", "$ 600").
    if (detail::is_currency_symbol(token)) {
      if (!out.empty() && out.back().value && detail::is_amount(out.back().text)) {
        out.back().text.insert(0, token);
      } else {
        currency = token;
      }
      continue;
    }
    const bool colon = raw.ends_with(':') && !token.ends_with(':');
    const auto before = out.size();
    detail::push_token(token, out);
    if (!currency.empty() && out.size() > before && out[before].value &&
        detail::is_amount(out[before].text)) {
      out[before].text.insert(0, currency);
    }
    currency = {};
    if (out.size() > before) {
      out.back().boundary = out.back().boundary || colon;
    }
  }
  detail::read_numbers(out, plain);
  const bool instruction = detail::drop_idioms(out);
  detail::passive_get_as_is(out);
  detail::change_to_as_copula(out);
  detail::allergy_as_allergic(out);
  detail::forbidden_as_never(out);
  detail::as_instead_of(out);
  detail::stay_as_keep(out);
  detail::compound_heads(out);
  if (!out.empty() && !out[0].value && (instruction || opens_instruction(out[0].text))) {
    out[0].opener = true;
  }
  detail::mark_inner_negations(out);
  // Words that stand for values are values from here on: where a predicate
  // opens depends on them, as comparing does.
  take_value_words(out);
  days_of_months(out);
  return out;
}

// A claim's tokens as its predicate makes them before any word is read: how
// it states its value, its verb, and the user a profile's line leaves unwritten.
ClaimTokens tokens_of_predicate(const std::vector<Token>& ordered, const Predicate& predicate,
                                const std::unordered_set<std::string>& proper) {
  ClaimTokens tokens;
  tokens.copular = predicate.copular;
  const bool copula = predicate.copular && !predicate.by_verb && predicate.passive == 0;
  tokens.at_place = copula && copula_at_place(ordered, predicate.at, proper);
  tokens.trait = copula && copula_states_trait(ordered, predicate.at, proper);
  // "is from Chile" says where its subject comes from: another relation
  // than the copula's "is a nurse".
  if (const auto w = after_copula(ordered, predicate.at);
      copula && w < ordered.size() && !ordered[w].value && ordered[w].text == "from") {
    tokens.verb = "from";
  }
  if (copula) {
    tokens.head = detail::complement_head(ordered, after_copula(ordered, predicate.at), proper);
  }
  // "is a member of the platform guild" says one group its subject is in,
  // of many: a relation, as a verb's, not the copula's one value.
  if (copula && detail::states_membership(ordered, after_copula(ordered, predicate.at))) {
    tokens.verb = "member";
    tokens.copular = false;
  }
  // "is on March 12" and "is in Room 4": a preposition after the copula
  // says which of its subject's things the claim states.
  if (copula && tokens.verb.empty() && predicate.at < ordered.size()) {
    tokens.preposition = preposition_after(ordered, predicate.at);
  }
  // "changed to Omar" states the new value as "was changed to Omar" does.
  if (predicate.by_verb && predicate.at < ordered.size() && !ordered[predicate.at].value) {
    auto stem = detail::comparable_stem(ordered[predicate.at].text);
    const bool to = predicate.at + 1 < ordered.size() && ordered[predicate.at + 1].text == "to";
    tokens.verb = to && detail::says_change_to(stem) ? std::string() : std::move(stem);
    tokens.preposition = tokens.verb.empty() ? "" : preposition_after(ordered, predicate.at);
  }
  // A participle of change ("was renamed to main", "was set to 30") states
  // the new value as the copula does.
  if (predicate.passive != 0 && predicate.at + predicate.passive < ordered.size()) {
    auto stem = detail::comparable_stem(ordered[predicate.at + predicate.passive].text);
    tokens.verb = detail::says_change(stem) ? std::string() : std::move(stem);
    tokens.preposition =
        tokens.verb.empty() ? "" : preposition_after(ordered, predicate.at + predicate.passive);
  }
  tokens.past = detail::in_past(ordered, predicate.at);
  tokens.dated = tokens.past && detail::names_past_time(ordered, predicate.at);
  if (predicate.user_unwritten) {
    tokens.subject.emplace_back("user");
    tokens.words.emplace_back("user");
  }
  return tokens;
}

// The stems of the significant words a value has when it is written bare,
// when it is plain words ("make test", "eng-"); none for any other value.
std::vector<std::string> bare_stems(const std::string& value) {
  const bool plain = std::all_of(value.begin(), value.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || c == ' ' || c == '-';
  });
  std::vector<std::string> stems;
  for (const auto& word : plain ? words_of(value) : std::vector<std::string>{}) {
    if (role_of(word) == Role::none) {
      stems.push_back(detail::comparable_stem(word));
    }
  }
  return stems;
}

// Reads the words of letters joined by hyphens (see ClaimTokens::compounds).
void read_compounds(const std::vector<Token>& ordered, ClaimTokens& tokens) {
  for (std::size_t w = 0; w < ordered.size(); ++w) {
    if (!ordered[w].hyphen) {
      continue;
    }
    std::string whole;
    std::vector<std::string> parts;
    bool words = true;
    for (; w < ordered.size(); ++w) {
      words = words && !ordered[w].value;
      whole += ordered[w].text;
      if (role_of(ordered[w].text) == Role::none) {
        parts.push_back(detail::comparable_stem(ordered[w].text));
      }
      if (!ordered[w].hyphen) {
        break;
      }
    }
    if (words && !parts.empty()) {
      tokens.compounds.emplace_back(detail::comparable_stem(whole), std::move(parts));
    }
  }
}

// Takes a value into `tokens`. A name (web-1, shard-3) is a scope; a version
// (c++17) is not, nor the value a copula or a change states ("The region is
// us-east-1", "The password changed to oak-42"). A verb's ("Redis runs on
// cache-01") is: the subject can run on many.
void take_value(ClaimTokens& tokens, std::string value, bool in_subject,
                const Predicate& predicate) {
  const bool related = predicate.by_verb && !tokens.verb.empty();
  if (is_identifier(value) && !is_version_name(value) &&
      (in_subject || !tokens.copular || (related && detail::is_numbered_name(value)))) {
    tokens.scopes.push_back(value);
  }
  if (auto stems = bare_stems(value); !stems.empty()) {
    tokens.quoted_words.emplace_back(value, std::move(stems));
  }
  (in_subject ? tokens.subject : tokens.predicate).push_back(value);
  tokens.values.push_back(std::move(value));
}

// Reads the two sides of a choice (see ClaimTokens::chosen), from the
// claim's start: where its predicate opens can hang on the choice itself
// ("prefers Go over …", where "go" is also a verb).
void read_choice(const std::vector<Token>& ordered, ClaimTokens& tokens) {
  const auto [at, length] = detail::contrast_of(ordered, 0);
  if (at == std::string::npos) {
    return;
  }
  for (std::size_t w = 0; w < ordered.size(); ++w) {
    if (w >= at && w < at + length) {
      continue;
    }
    const auto& text = ordered[w].text;
    auto token = ordered[w].value              ? text
                 : role_of(text) == Role::none ? detail::comparable_stem(text)
                                               : std::string();
    if (!token.empty()) {
      (w < at ? tokens.chosen : tokens.passed_over).push_back(std::move(token));
    }
  }
}

// Reads what the claim says as a whole, in the order written: the choice it
// states, a closure, a change of place, its compounds and its links' targets.
void read_whole_claim(const std::vector<Token>& ordered,
                      const std::unordered_set<std::string>& proper,
                      const std::vector<std::string>& targets, ClaimTokens& tokens) {
  read_choice(ordered, tokens);
  tokens.closure = detail::says_closure(ordered);
  detail::read_relocation(ordered, proper, tokens);
  read_compounds(ordered, tokens);
  for (const auto& target : targets) {
    for (auto& token : ordered_tokens(target)) {
      if (token.value) {
        tokens.link_targets.push_back(std::move(token.text));
      }
    }
  }
}

void sort_all(ClaimTokens& tokens) {
  for (auto* list :
       {&tokens.words, &tokens.values, &tokens.subject, &tokens.predicate, &tokens.scopes,
        &tokens.units, &tokens.names, &tokens.narrowed, &tokens.cases, &tokens.capitalised,
        &tokens.common, &tokens.dates, &tokens.chosen, &tokens.passed_over, &tokens.link_targets}) {
    sort_unique(*list);
  }
  for (auto* pairs : {&tokens.quoted_words, &tokens.compounds}) {
    sort_unique(*pairs);
  }
}

} // namespace

namespace {

// Reads the words and values of `ordered`, a claim whose predicate opens at
// `predicate.at`, into `tokens`: each word stemmed into its subject or its
// predicate, its values, scopes, units, names and narrowing qualifiers, and
// its polarity. The words are moved out of `ordered`.
void read_words(std::vector<Token>& ordered, const Predicate& predicate,
                const std::unordered_set<std::string>& proper, ClaimTokens& tokens) {
  std::vector<char> seasons(ordered.size()); // read before the loop moves the words out
  std::vector<char> cases(ordered.size());
  std::vector<char> common(ordered.size());
  for (std::size_t w = 0; w < ordered.size(); ++w) {
    seasons[w] = detail::in_season(ordered, w) ? 1 : 0;
    cases[w] = ordered[w].value && detail::names_case(ordered, w) ? 1 : 0;
    common[w] = written_common(ordered, w) ? 1 : 0;
  }
  std::size_t narrowing_until = 0; // a narrowing qualifier's words, up to three
  // "Never deploy without approval" asks for approval: two negations say yes.
  bool without = false;
  for (std::size_t w = 0; w < ordered.size(); ++w) {
    const bool in_subject = w < predicate.at;
    // A day or month goes on the qualifier ("at 10:00 on Fridays"): it
    // narrows the value as a word does, where another value ends it.
    const bool date = ordered[w].value && role_of(ordered[w].text) == Role::date;
    const bool ends = detail::ends_qualifier(ordered[w]) && !date;
    const bool opens = detail::narrows_value(ordered, w);
    narrowing_until = opens ? w + 4 : ends ? std::min(narrowing_until, w) : narrowing_until;
    if (date) {
      tokens.dates.push_back(ordered[w].text);
      if (!in_subject && w < narrowing_until) {
        tokens.narrowed.push_back(ordered[w].text);
      }
    }
    if (ordered[w].value) {
      if (!in_subject && !date && cases[w] != 0) {
        tokens.cases.push_back(ordered[w].text);
      }
      take_value(tokens, std::move(ordered[w].text), in_subject, predicate);
      continue;
    }
    const bool names_value = detail::names_value(ordered, w, proper);
    const bool capitalised = proper.contains(ordered[w].text);
    auto word = std::move(ordered[w].text);
    detail::drop_ending(word);
    const auto role = role_of(word);
    if (role == Role::negation || word.ends_with("n't")) {
      (word == "without" ? without : tokens.negated) = true;
      if (word == "no" && w + 1 < ordered.size() && ordered[w + 1].text == "longer") {
        ++w;
      }
      continue;
    }
    if (is_scope_word(word) || seasons[w] != 0) {
      tokens.scopes.push_back(word);
    }
    if (role == Role::stopword) {
      continue;
    }
    std::erase(word, '\'');
    auto stem =
        detail::comparable_stem(w > 0 && ordered[w - 1].value ? detail::unit_word(word) : word);
    if (!stem.empty() && w > 0 && ordered[w - 1].value) {
      tokens.units.push_back(stem);
    }
    if (!stem.empty() && names_value) {
      tokens.names.push_back(stem);
    }
    if (!stem.empty() && !in_subject && (capitalised || common[w] != 0)) {
      (capitalised ? tokens.capitalised : tokens.common).push_back(stem);
    }
    if (!stem.empty() && !in_subject && w < narrowing_until && !opens) {
      tokens.narrowed.push_back(stem);
    }
    if (!stem.empty()) {
      (in_subject ? tokens.subject : tokens.predicate).push_back(stem);
      if (!in_subject) {
        tokens.sequence.push_back(stem);
      }
      tokens.words.push_back(std::move(stem));
    }
  }
  tokens.negated = tokens.negated != without;
}

} // namespace

ClaimTokens tokens_of(std::string_view text) {
  std::string reason;
  const auto claim = detail::without_reason(text, reason);
  text = claim;
  std::vector<std::string> targets;
  const auto plain = detail::time_clause_last(
      detail::contrast_as_choice(detail::reported_as_said(detail::without_vouching(
          detail::without_stamp(detail::without_link_targets(text, &targets))))));
  auto ordered = ordered_tokens(plain);
  const bool changed_from = detail::change_as_choice(ordered);
  const auto proper = detail::proper_words(plain);
  detail::naming_as_apposition(ordered, proper);
  detail::switched_as_state(ordered, proper);
  auto predicate = predicate_of(ordered, proper);
  detail::holder_without_now(ordered, proper, predicate);
  detail::redone_as_done(ordered, predicate);
  put_definite_complement_first(ordered, predicate);
  auto tokens = tokens_of_predicate(ordered, predicate, proper);
  tokens.changed_from = changed_from;
  read_whole_claim(ordered, proper, targets, tokens);
  read_words(ordered, predicate, proper, tokens);
  sort_all(tokens);
  detail::read_now_and_habit(plain, tokens);
  tokens.stamp = detail::stamp_of(text);
  if (!reason.empty()) {
    auto why = tokens_of(reason);
    tokens.reason = joined(why.words, why.values);
  }
  return tokens;
}

} // namespace engram::claims
