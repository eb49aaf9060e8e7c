// The subject model. A predicate opens at the first copula, auxiliary or
// negation of the claim's first clause, else at the first verb-shaped word
// that follows a content word ("The module leaks …", "Stripe retries …").
// The parse is shallow and can be wrong; what matters is that it is the
// same for two claims of the same shape, and that every way it can be wrong
// makes two claims look less alike, never more.
#include "claims/subject.hpp"

#include "claims/token_values.hpp"
#include "claims/tokens.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <optional>

namespace engram::claims {
namespace {

// How far into a claim its first clause's copula or auxiliary is looked for.
constexpr std::size_t k_clause_reach = 12;
// Most words of a label before its colon ("Learning rate: 3e-4").
constexpr std::size_t k_label_reach = 4;

// Copulas: a predicate opening with one says what the subject is, so a
// changed complement ("is master" → "is main") is a changed value.
constexpr std::array<std::string_view, 13> k_copulas = {
    "is",     "are",     "was",   "were",    "be",     "been",  "am",
    "equals", "remains", "stays", "becomes", "became", "means",
};

// Auxiliaries: where a predicate opens, though they say nothing of its value.
constexpr std::array<std::string_view, 15> k_auxiliaries = {
    "has", "have",  "had",    "do",   "does", "did",   "will",   "would",
    "can", "could", "should", "must", "may",  "might", "cannot",
};

// Verbs in their base form, which the shape of a word does not show: a
// plural subject's predicate opens with one ("Backups run nightly").
constexpr std::array<std::string_view, 48> k_base_verbs = {
    "run",    "use",   "need",    "take",    "support", "require", "return", "expire",
    "happen", "work",  "contain", "include", "allow",   "accept",  "send",   "point",
    "cost",   "fail",  "reset",   "go",      "get",     "live",    "belong", "depend",
    "rely",   "own",   "hold",    "keep",    "show",    "ship",    "handle", "prefer",
    "like",   "want",  "know",    "speak",   "serve",   "expose",  "listen", "reach",
    "last",   "cover", "block",   "retry",   "trigger", "break",   "land",   "sit",
};

// Past tenses no suffix shows ("Deploy 412 went out", "The job ran twice"):
// verbs as the "-ed" of a regular one is. Not those also read as adjectives
// or nouns before a noun ("the left panel", "a lost-and-found box").
constexpr std::array<std::string_view, 27> k_irregular_pasts = {
    "went", "ran",   "took", "got",   "kept",  "held", "sent",   "broke",   "sat",
    "knew", "spoke", "came", "began", "wrote", "gave", "became", "brought", "bought",
    "told", "spent", "won",  "fell",  "froze", "left", "quit",   "rose",    "grew",
};

// The most tokens a subject said to be "the" something has ("Priya", "Ana
// Lima"); a longer one is a sentence of its own. One opened by a determiner
// ("The problem is the network") is the thing that has the value.
constexpr std::size_t k_inverted_subject_reach = 3;

// Verbs in the third person that open a profile's line about the user with
// its subject unwritten ("Prefers short answers"); ones that are plural nouns
// as often ("Retries", "Runs", "Returns") are not among them. "Has" is one
// ("Has two cats"): no claim's first word is an auxiliary otherwise.
constexpr std::array<std::string_view, 31> k_profile_verbs = {
    "prefers", "likes",   "dislikes", "wants",  "lives",    "loves", "hates",    "enjoys",
    "speaks",  "knows",   "works",    "uses",   "studies",  "owns",  "drinks",   "drives",
    "eats",    "needs",   "has",      "sleeps", "wakes",    "swims", "commutes", "meditates",
    "teaches", "attends", "wears",    "avoids", "believes", "goes",  "bakes",
};

// Words that open an instruction: its predicate is the whole claim.
constexpr std::array<std::string_view, 64> k_openers = {
    "always", "never",    "dont",    "don't",    "do",       "please",  "avoid",  "prefer",
    "make",   "use",      "run",     "remember", "check",    "verify",  "add",    "install",
    "ask",    "ensure",   "keep",    "try",      "restart",  "remove",  "delete", "create",
    "put",    "include",  "confirm", "validate", "skip",     "follow",  "set",    "pin",
    "bump",   "revert",   "enable",  "disable",  "turn",     "stop",    "start",  "send",
    "write",  "tell",     "reply",   "let",      "escalate", "freeze",  "offer",  "rotate",
    "roll",   "wait",     "drain",   "reboot",   "leave",    "format",  "notify", "email",
    "remind", "schedule", "book",    "cancel",   "archive",  "approve", "review", "rerun",
};

// Determiners: after a first word, they show it is a verb ("Offer a refund").
constexpr std::array<std::string_view, 14> k_determiners = {
    "a",    "an",  "the",  "all",  "every", "each",  "any",
    "your", "our", "this", "that", "these", "those", "both",
};

// Prepositions: a verb followed by one names where or what the subject is
// ("runs on Travis", "lives in Porto", "is bundled with webpack").
constexpr std::array<std::string_view, 12> k_prepositions = {
    "on", "in", "with", "by", "from", "at", "to", "via", "through", "under", "onto", "into",
};

// Words between a verb and what it says that do not change it.
constexpr std::array<std::string_view, 9> k_adverbs = {
    "not", "now", "still", "currently", "always", "also", "no", "longer", "never",
};

// Names of what comes in numbered versions: "C++17", "ES2022", "python3"
// name a version, where "web-1" and "db01" name a host.
constexpr std::array<std::string_view, 32> k_version_families = {
    "c++",   "c",      "es",      "ecmascript", "python",  "py",     "node",     "java",
    "jdk",   "ios",    "android", "api",        "php",     "ruby",   "go",       "gcc",
    "clang", "llvm",   "tls",     "http",       "ubuntu",  "debian", "macos",    "windows",
    "gpt",   "claude", "llama",   "gemini",     "mistral", "qwen",   "deepseek", "phi",
};

// Pronouns: a predicate may follow one ("We use pnpm").
constexpr std::array<std::string_view, 7> k_pronouns = {"we", "i",   "you", "they",
                                                        "he", "she", "it"};

// Scopes a fact holds in: environments, platforms, regions, plans.
constexpr std::array<std::string_view, 36> k_scopes = {
    "staging", "stage",   "production", "prod",     "dev",      "development",
    "sandbox", "qa",      "uat",        "local",    "preview",  "canary",
    "beta",    "alpha",   "ios",        "android",  "web",      "desktop",
    "mobile",  "windows", "macos",      "linux",    "internal", "external",
    "eu",      "us",      "emea",       "apac",     "europe",   "asia",
    "weekday", "weekend", "weekdays",   "weekends", "test",     "testing",
};

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Whether a word has the shape of a verb in a predicate: a third-person
// "leaks", a past "expired", or a base verb the shape does not show.
bool is_verb_like(std::string_view word) {
  if (word.size() >= 4 && word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") &&
      !word.ends_with("is")) {
    return true;
  }
  return (word.size() >= 5 && word.ends_with("ed")) || listed(k_base_verbs, word) ||
         listed(k_irregular_pasts, word);
}

// Whether `word` has the shape of a participle ("invalidated", "running",
// "written"), or is one no suffix shows of a relation with one value at a
// time ("is kept in", "is led by"; not "built with", "sold at" or "sent
// to", which hold many), and is not a name written capitalised
// ("Memcached"). A word in "-een" is no participle ("green", "screen") but
// "seen" and its kin.
bool is_participle(std::string_view word, const std::unordered_set<std::string>& proper) {
  constexpr std::array<std::string_view, 2> k_irregular = {"kept", "led"};
  if (listed(k_irregular, word)) {
    return true;
  }
  const bool een = word.ends_with("een") && !word.ends_with("seen");
  const bool shaped = (word.size() >= 4 && word.ends_with("ed")) ||
                      (word.size() >= 5 && word.ends_with("ing")) ||
                      (word.size() >= 5 && word.ends_with("en") && !een);
  return shaped && !proper.contains(std::string(word));
}

// The first token after `at` that is not an adverb, or tokens.size().
std::size_t next_content(const std::vector<Token>& tokens, std::size_t at) {
  auto i = at + 1;
  while (i < tokens.size() && !tokens[i].value && listed(k_adverbs, tokens[i].text)) {
    ++i;
  }
  return i;
}

// Whether the token at `at` is a preposition (a switch position is not).
bool is_preposition(const std::vector<Token>& tokens, std::size_t at) {
  return at < tokens.size() && !tokens[at].value && listed(k_prepositions, tokens[at].text);
}

// Whether the token at `at` is "for": after a verb it relates the verb as a
// preposition does ("training for a marathon", "training with a coach"),
// though it opens no predicate.
bool is_purpose(const std::vector<Token>& tokens, std::size_t at) {
  return at < tokens.size() && !tokens[at].value && tokens[at].text == "for";
}

// Whether the verb at `verb` relates its subject to what follows it: a
// preposition after it ("lives in", "runs on"), or "for" or "as" after
// working, which name an employer and a job as "at" does ("works for Morgan
// Stanley", "works as a nurse").
bool relates(const std::vector<Token>& tokens, std::size_t verb) {
  const auto next = next_content(tokens, verb);
  return is_preposition(tokens, next) ||
         (tokens[verb].text.starts_with("work") && next < tokens.size() && !tokens[next].value &&
          (tokens[next].text == "for" || tokens[next].text == "as"));
}

// Whether the copula at `at` states a value: a complement follows it
// ("is Redis", "is on v10"), or a participle with a preposition ("is bundled
// with"); a participle alone is an action ("is invalidated on deploy").
bool copula_states_value(const std::vector<Token>& tokens, std::size_t at,
                         const std::unordered_set<std::string>& proper) {
  const auto next = next_content(tokens, at);
  if (next == tokens.size() || tokens[next].value) {
    return true;
  }
  const bool preposition_after = is_preposition(tokens, next_content(tokens, next));
  if (is_participle(tokens[next].text, proper)) {
    return preposition_after; // "is bundled with webpack"
  }
  // An adjective and a preposition relate the subject to things, of which
  // it can have many ("is allergic to cats", "is fluent in Portuguese").
  return !preposition_after || is_preposition(tokens, next);
}

// Whether a token's word is content: a value, a word that is no stopword, or a pronoun.
bool is_content(const Token& token) {
  return token.value || !is_stopword(token.text) || listed(k_pronouns, token.text);
}

// The copula, auxiliary or negation before a verb ("not", "never") that
// opens the first clause's predicate; "without" and "no" sit inside one.
std::optional<Predicate> clause_predicate(const std::vector<Token>& tokens,
                                          const std::unordered_set<std::string>& proper) {
  const auto reach = std::min(tokens.size(), k_clause_reach);
  for (std::size_t i = 0; i < reach; ++i) {
    if (tokens[i].boundary) {
      // A label's colon or dash ("Owner: Priya") states a value; one deep in
      // a sentence opens an aside.
      return Predicate{i + 1, i < k_label_reach};
    }
    if (i == 0 || tokens[i].value) {
      continue;
    }
    const auto& word = tokens[i].text;
    const auto bare = word.ends_with("n't") ? std::string_view(word).substr(0, word.size() - 3)
                                            : std::string_view(word);
    if (listed(k_copulas, bare)) {
      Predicate predicate{i, copula_states_value(tokens, i, proper)};
      const auto next = next_content(tokens, i);
      const auto after = next_content(tokens, next);
      if (next < tokens.size() && !tokens[next].value && is_participle(tokens[next].text, proper) &&
          (is_preposition(tokens, after) || is_purpose(tokens, after))) {
        predicate.passive = next - i;
      }
      return predicate;
    }
    // "in May" names a month, not what may be.
    const bool month = bare == "may" && is_preposition(tokens, i - 1);
    if ((listed(k_auxiliaries, bare) && !month) || word == "not" || word == "never" ||
        word.ends_with("n't")) {
      return Predicate{i, false};
    }
  }
  return std::nullopt;
}

// A claim that opens with a verb in the third person and no subject before
// it ("Prefers short answers", "Works at Acme"), or with words that say
// when before it ("Now works at Globex", "No longer drinks coffee"); a
// plural noun before a base verb ("Needs change every sprint") is a subject.
std::optional<Predicate> unwritten_subject(const std::vector<Token>& tokens) {
  const auto verb =
      !tokens[0].value && listed(k_adverbs, tokens[0].text) ? next_content(tokens, 0) : 0;
  if (verb >= tokens.size() || tokens[verb].value || !listed(k_profile_verbs, tokens[verb].text) ||
      (verb + 1 < tokens.size() && !tokens[verb + 1].value &&
       listed(k_base_verbs, tokens[verb + 1].text))) {
    return std::nullopt;
  }
  // The predicate opens at the verb, which a verb's claim compares; the
  // words before it say when, as they do after a subject.
  const bool related = relates(tokens, verb);
  return Predicate{verb, related, related, true};
}

} // namespace

std::string preposition_after(const std::vector<Token>& tokens, std::size_t verb) {
  const auto next = next_content(tokens, verb);
  if (!is_preposition(tokens, next) && !relates(tokens, verb) && !is_purpose(tokens, next)) {
    return {};
  }
  const auto& word = tokens[next].text;
  return word == "for" && tokens[verb].text.starts_with("work") ? "at" : word;
}

bool opens_instruction(std::string_view word) {
  return listed(k_openers, word);
}

bool is_identifier(std::string_view value) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (value.size() >= 2 && value.front() == '#') { // an issue's or a pull request's number
    return std::all_of(value.begin() + 1, value.end(), digit);
  }
  return !value.empty() && value.front() >= 'a' && value.front() <= 'z' &&
         std::any_of(value.begin(), value.end(), digit);
}

bool is_version_name(std::string_view value) {
  const auto digit = value.find_first_of("0123456789");
  if (digit == std::string_view::npos) {
    return false;
  }
  auto family = value.substr(0, digit);
  while (!family.empty() &&
         (family.back() == '-' || family.back() == '.' || family.back() == ' ')) {
    family.remove_suffix(1);
  }
  const auto number = value.substr(digit);
  const bool year = number.size() == 4 && (number.starts_with("19") || number.starts_with("20"));
  return year || listed(k_version_families, family);
}

bool is_scope_word(std::string_view word) {
  return listed(k_scopes, word);
}

Predicate predicate_of(const std::vector<Token>& tokens,
                       const std::unordered_set<std::string>& proper) {
  if (tokens.empty() || tokens[0].opener) {
    return {0, false};
  }
  if (const auto unwritten = unwritten_subject(tokens)) {
    return *unwritten;
  }
  if (const auto clause = clause_predicate(tokens, proper)) {
    return *clause;
  }
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    // The word before, past adverbs ("Aunt Rosa now lives in Braga").
    auto before = i - 1;
    while (before > 0 && !tokens[before].value && listed(k_adverbs, tokens[before].text)) {
      --before;
    }
    if (tokens[i].value || !is_content(tokens[before]) || !is_verb_like(tokens[i].text)) {
      continue;
    }
    // A plural noun before a base verb ("Integration tests need …"), or a
    // noun before a past verb and its preposition ("The team docs moved to
    // Notion", "The shop's handle changed to …"), is the subject's; a past
    // before its object is not ("sends signed emails").
    const bool next_word = i + 1 < tokens.size() && !tokens[i + 1].value;
    const bool before_past = next_word && tokens[i + 1].text.size() >= 5 &&
                             tokens[i + 1].text.ends_with("ed") &&
                             is_preposition(tokens, next_content(tokens, i + 1));
    const bool before_base = next_word && listed(k_base_verbs, tokens[i + 1].text) &&
                             !listed(k_base_verbs, tokens[i].text);
    if (!before_past && !before_base) {
      const bool related = relates(tokens, i);
      return {i, related, related};
    }
  }
  // An instruction whose verb no list names: a first word, then a determiner.
  if (tokens.size() >= 2 && !tokens[0].value && !tokens[1].value &&
      listed(k_determiners, tokens[1].text)) {
    return {0, false};
  }
  // No verb: the claim is about what comes before its first measured value,
  // or, with no value, about its first word ("Alerts page the on-call …").
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].value && !is_identifier(tokens[i].text)) {
      return {i, false};
    }
  }
  return {std::min<std::size_t>(tokens.size(), 1), false};
}

void put_definite_complement_first(std::vector<Token>& tokens, Predicate& predicate) {
  const auto at = predicate.at;
  // "Omar is now the DRI" names the holder as "Omar is the DRI" does; "not"
  // before "the" says it does not.
  auto the = at + 1;
  while (the < tokens.size() && !tokens[the].value &&
         (tokens[the].text == "now" || tokens[the].text == "still" ||
          tokens[the].text == "currently")) {
    ++the;
  }
  if (at == 0 || at > k_inverted_subject_reach || the + 1 >= tokens.size() || tokens[at].value ||
      !listed(k_copulas, tokens[at].text) || tokens[the].text != "the" || tokens[the].value ||
      listed(k_determiners, tokens[0].text)) {
    return;
  }
  std::vector<Token> reordered(std::make_move_iterator(tokens.begin() + the),
                               std::make_move_iterator(tokens.end()));
  reordered.push_back(std::move(tokens[at]));
  std::move(tokens.begin(), tokens.begin() + at, std::back_inserter(reordered));
  predicate = Predicate{tokens.size() - the, true, false};
  tokens = std::move(reordered);
}

std::size_t after_copula(const std::vector<Token>& tokens, std::size_t at) {
  constexpr std::array<std::string_view, 4> k_copulas = {"is", "are", "was", "were"};
  constexpr std::array<std::string_view, 3> k_adverbs = {"now", "still", "currently"};
  const auto listed = [&](const auto& list, std::size_t w) {
    return w < tokens.size() && !tokens[w].value &&
           std::find(list.begin(), list.end(), tokens[w].text) != list.end();
  };
  if (!listed(k_copulas, at)) {
    return tokens.size();
  }
  auto w = at + 1;
  while (listed(k_adverbs, w)) {
    ++w;
  }
  return w;
}

bool house_number(const std::vector<Token>& tokens, std::size_t at,
                  const std::unordered_set<std::string>& proper) {
  return at + 1 < tokens.size() && tokens[at].value && detail::all_digits(tokens[at].text) &&
         !tokens[at + 1].value && proper.contains(tokens[at + 1].text);
}

bool copula_at_place(const std::vector<Token>& tokens, std::size_t at,
                     const std::unordered_set<std::string>& proper) {
  const auto w = after_copula(tokens, at);
  const auto named = w + 1 < tokens.size() && house_number(tokens, w + 1, proper) ? w + 2 : w + 1;
  return named < tokens.size() && !tokens[w].value &&
         (tokens[w].text == "in" || tokens[w].text == "at") && !tokens[named].value &&
         proper.contains(tokens[named].text);
}

bool copula_states_trait(const std::vector<Token>& tokens, std::size_t at,
                         const std::unordered_set<std::string>& proper) {
  // What may open a complement that is not a trait: an article or another
  // determiner names a thing ("is a nurse"), a preposition a relation ("is
  // from Chile"), a negation the trait's absence.
  constexpr std::array<std::string_view, 22> k_not_trait = {
      "a",  "an", "the", "my",   "our", "your", "his",  "her",   "their", "its", "from",
      "in", "at", "on",  "with", "for", "by",   "near", "under", "over",  "to",  "not"};
  const auto w = after_copula(tokens, at);
  return w < tokens.size() && !tokens[w].value && !proper.contains(tokens[w].text) &&
         std::find(k_not_trait.begin(), k_not_trait.end(), tokens[w].text) == k_not_trait.end() &&
         std::none_of(tokens.begin() + static_cast<std::ptrdiff_t>(w), tokens.end(),
                      [](const Token& token) { return token.value; });
}

} // namespace engram::claims
