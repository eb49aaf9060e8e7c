// Classification by keywords and shapes. Deterministic and explainable on
// purpose: the same claim always lands in the same layer, and a user can see
// from the claim's words why it went there.
#include "claims/classify.hpp"

#include "claims/normalise.hpp"

#include "claims/words.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace engram::claims {
namespace {

// Phrases that make any claim a pointer.
constexpr std::array<std::string_view, 21> k_pointer_phrases = {
    "can be found",     "could be found",   "is found at",    "are found at",   "is found in",
    "are found in",     "is located at",    "is located in",  "are located at", "are located in",
    "is documented at", "is documented in", "are documented", "lives in",       "lives at",
    "lives on",         "live in",          "refer to",       "docs at",        "documentation at",
    "documented at",
};

// Phrases that make a claim a pointer when a path, link or #channel follows somewhere.
constexpr std::array<std::string_view, 9> k_weak_pointer_phrases = {
    "is at",      "are at",      "see",          "docs are",      "documentation is",
    "is kept at", "are kept at", "is stored at", "are stored at",
};

// Names of places that, with a path, link or #channel, make a claim a pointer.
constexpr std::array<std::string_view, 16> k_place_nouns = {
    "doc",       "docs",       "documentation", "runbook",  "runbooks", "wiki",
    "dashboard", "dashboards", "channel",       "channels", "playbook", "readme",
    "handbook",  "confluence", "notion",        "spec",
};

// Words and phrases that make a claim an instruction.
constexpr std::array<std::string_view, 19> k_instruction_phrases = {
    "always",     "never",   "don't",      "dont",       "do not",    "avoid",     "prefer",
    "must",       "mustn't", "must not",   "should",     "shouldn't", "make sure", "remember to",
    "be sure to", "ensure",  "stop using", "be careful", "please",
};

// Verbs that start an instruction whatever follows them.
constexpr std::array<std::string_view, 50> k_imperative_verbs = {
    "run",     "use",     "check",   "verify",  "add",      "install", "ask",       "avoid",
    "prefer",  "ensure",  "keep",    "try",     "restart",  "rerun",   "remove",    "delete",
    "create",  "put",     "include", "confirm", "validate", "rebuild", "mention",   "consider",
    "retry",   "wait",    "skip",    "follow",  "treat",    "tell",    "reply",     "respond",
    "prepend", "append",  "rename",  "inspect", "compare",  "grep",    "rebase",    "squash",
    "bump",    "revert",  "reboot",  "unset",   "enable",   "disable", "configure", "upgrade",
    "edit",    "replace",
};

// Verbs that are also nouns ("Build takes 5 minutes"): an instruction only
// when a determiner, pronoun or particle follows ("Build the image first").
constexpr std::array<std::string_view, 41> k_ambiguous_verbs = {
    "build",  "test",   "format", "log",   "cache",  "tag",    "label", "set",   "update",
    "report", "review", "post",   "copy",  "move",   "drop",   "close", "limit", "start",
    "stop",   "pin",    "sort",   "group", "split",  "commit", "push",  "pull",  "merge",
    "deploy", "search", "look",   "call",  "export", "make",   "read",  "write", "open",
    "clear",  "pass",   "leave",  "quote", "change",
};

// Words after an ambiguous verb that show it is an instruction.
constexpr std::array<std::string_view, 31> k_object_words = {
    "the",  "a",     "an",     "it",    "them", "this", "that", "these", "those", "your", "our",
    "all",  "every", "each",   "any",   "both", "up",   "out",  "off",   "down",  "back", "first",
    "only", "again", "before", "after", "with", "to",   "from", "into",  "in",
};

// Words that open a leading clause: "When X fails, rerun it" instructs.
constexpr std::array<std::string_view, 8> k_clause_openers = {
    "when", "if", "before", "after", "once", "whenever", "to", "while",
};

// Whether `word` is one of `list`.
template <std::size_t N>
bool is_one_of(std::string_view word, const std::array<std::string_view, N>& list) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// `token` without the brackets, quotes, backticks and punctuation around it.
std::string_view trim_token(std::string_view token) {
  constexpr std::string_view k_around = "()[]{}<>\"'`*_,;:!?";
  while (!token.empty() && k_around.find(token.front()) != std::string_view::npos) {
    token.remove_prefix(1);
  }
  while (!token.empty() &&
         (k_around.find(token.back()) != std::string_view::npos || token.back() == '.')) {
    token.remove_suffix(1);
  }
  return token;
}

// The whitespace-separated tokens of `text`.
std::vector<std::string_view> raw_tokens(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) {
      ++i;
    }
    const auto begin = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\n' &&
           text[i] != '\r') {
      ++i;
    }
    if (i > begin) {
      tokens.push_back(text.substr(begin, i - begin));
    }
  }
  return tokens;
}

// Whether a token is a URL.
bool is_url(std::string_view token) {
  token = trim_token(token);
  const auto scheme = token.find("://");
  if (scheme != std::string_view::npos && scheme > 0) {
    return true;
  }
  return token.starts_with("www.") || token.starts_with("mailto:");
}

// Whether a token names a place: a URL, a Markdown link, a path, a document
// file or a #channel.
bool is_place(std::string_view raw) {
  if (is_url(raw) || raw.find("](") != std::string_view::npos) {
    return true;
  }
  const auto token = trim_token(raw);
  if (token.size() < 2) {
    return false;
  }
  if (token.front() == '#') {
    const char c = token[1];
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
  if (token.starts_with("/") || token.starts_with("~/") || token.starts_with("./") ||
      token.starts_with("../") || token.find('\\') != std::string_view::npos) {
    return true;
  }
  // One slash between words is "and/or"; a path has more, a file or a trailing slash.
  const auto slash = token.rfind('/');
  if (slash != std::string_view::npos && slash > 0) {
    const auto slashes = std::count(token.begin(), token.end(), '/');
    return slashes >= 2 || slash + 1 == token.size() ||
           token.find('.', slash) != std::string_view::npos;
  }
  for (const std::string_view extension : {".md", ".html", ".pdf", ".txt", ".rst", ".adoc"}) {
    if (token.size() > extension.size() && token.ends_with(extension)) {
      return true;
    }
  }
  return false;
}

// Whether the claim points to an external place. A URL inside inline code is
// part of a command (`curl https://...`), not a pointer; a path inside inline
// code still names a place for the phrases below.
bool is_reference(std::string_view prose) {
  const auto prose_only = without_code(prose);
  const auto outside_code = raw_tokens(prose_only);
  if (std::any_of(outside_code.begin(), outside_code.end(), is_url)) {
    return true;
  }
  const auto tokens = raw_tokens(prose);
  const auto words = words_of(prose);
  static const PhraseSet k_pointers(k_pointer_phrases);
  if (k_pointers.found_in(words)) {
    return true;
  }
  if (!std::any_of(tokens.begin(), tokens.end(), is_place)) {
    return false;
  }
  static const PhraseSet k_weak_pointers(k_weak_pointer_phrases);
  if (k_weak_pointers.found_in(words)) {
    return true;
  }
  return std::any_of(words.begin(), words.end(),
                     [](const std::string& word) { return is_one_of(word, k_place_nouns); });
}

// `line` without its container prefix, list marker, task box and emphasis.
std::string_view strip_line_markup(std::string_view line) {
  line = strip_line_start(line);
  while (!line.empty() && std::string_view(" \t*_~").find(line.front()) != std::string_view::npos) {
    line.remove_prefix(1);
  }
  return line;
}

// Whether a clause (a line or a sentence) starts with an imperative verb.
bool starts_imperative(std::string_view clause) {
  auto words = words_of(strip_line_markup(clause));
  if (!words.empty() && is_one_of(words.front(), k_clause_openers)) {
    // Skip the leading clause: the instruction follows its comma.
    const auto comma = clause.find(',');
    if (comma == std::string_view::npos) {
      return false;
    }
    words = words_of(clause.substr(comma + 1));
  }
  if (words.empty()) {
    return false;
  }
  if (is_one_of(words[0], k_imperative_verbs)) {
    return true;
  }
  return words.size() >= 2 && is_one_of(words[0], k_ambiguous_verbs) &&
         is_one_of(words[1], k_object_words);
}

// Whether the claim is an instruction.
bool is_instruction(std::string_view prose) {
  const auto words = words_of(prose);
  static const PhraseSet k_instructions(k_instruction_phrases);
  if (k_instructions.found_in(words)) {
    return true;
  }
  const auto use = std::min(find_phrase(words, "use"), find_phrase(words, "using"));
  if (use < words.size() &&
      std::find(words.begin() + static_cast<long>(use), words.end(), "instead") != words.end()) {
    return true;
  }
  // Each line and each sentence may start with an imperative.
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= prose.size(); ++i) {
    const bool end_of_clause =
        i == prose.size() || prose[i] == '\n' ||
        ((prose[i] == '.' || prose[i] == '!' || prose[i] == '?' || prose[i] == ';') &&
         i + 1 < prose.size() && prose[i + 1] == ' ');
    if (end_of_clause) {
      if (starts_imperative(prose.substr(begin, i - begin))) {
        return true;
      }
      begin = i + 1;
    }
  }
  return false;
}

} // namespace

ClaimKind classify(std::string_view text) {
  // Code blocks show how, not what: their words neither point nor instruct.
  const auto prose = without_code_blocks(text);
  if (is_reference(prose)) {
    return ClaimKind::reference;
  }
  if (is_instruction(without_code(prose))) {
    return ClaimKind::behavioural;
  }
  return ClaimKind::factual;
}

ClaimKind KindMemo::classify(std::string_view text) {
  if (const auto it = m_kinds.find(text); it != m_kinds.end()) {
    return it->second;
  }
  const auto kind = claims::classify(text);
  m_kinds.emplace(std::string(text), kind);
  return kind;
}

} // namespace engram::claims
