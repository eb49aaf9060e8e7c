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

// `token` without the brackets, quotes, backticks and punctuation around it.
std::string_view without_marks(std::string_view token) {
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

// Whether `token` holds one of the bytes of `Bytes`, through a table built once per set.
template <const std::string_view& Bytes> bool holds_any(std::string_view token) {
  static const auto table = [] {
    std::array<bool, 256> in{};
    for (const char c : Bytes) {
      in[static_cast<unsigned char>(c)] = true;
    }
    return in;
  }();
  return std::any_of(token.begin(), token.end(),
                     [](char c) { return table[static_cast<unsigned char>(c)]; });
}

// What a URL holds one of: the `:` of a scheme or `mailto:`, the `.` of `www.`.
constexpr std::string_view k_url_bytes = ":.";
// What a place holds one of (see is_place): a URL's, a link's `]`, a path's
// separators, a #channel's `#`, a file's `.`.
constexpr std::string_view k_place_bytes = ":.]/\\#";

// Whether a token is a URL.
bool is_url(std::string_view token) {
  if (!holds_any<k_url_bytes>(token)) {
    return false; // most words: no trimming, no search
  }
  token = without_marks(token);
  const auto scheme = token.find("://");
  if (scheme != std::string_view::npos && scheme > 0) {
    return true;
  }
  return token.starts_with("www.") || token.starts_with("mailto:");
}

// Whether a token names a place: a URL, a Markdown link, a path, a document
// file or a #channel.
bool is_place(std::string_view raw) {
  if (!holds_any<k_place_bytes>(raw)) {
    return false; // most words
  }
  if (is_url(raw) || raw.find("](") != std::string_view::npos) {
    return true;
  }
  const auto token = without_marks(raw);
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

// A text as the keyword rules read it: its whitespace-separated tokens and its words.
struct Reading {
  std::vector<std::string_view> tokens; // raw_tokens, into the text
  std::vector<std::string> words;       // words_of
};

Reading read(std::string_view text) {
  return {raw_tokens(text), words_of(text)};
}

// Whether the claim points to an external place. A URL inside inline code is
// part of a command (`curl https://...`), not a pointer; a path inside inline
// code still names a place for the phrases below. `prose` is the claim's
// prose read whole, `outside_code` without its code spans.
bool is_reference(const Reading& prose, const Reading& outside_code) {
  if (std::any_of(outside_code.tokens.begin(), outside_code.tokens.end(), is_url)) {
    return true;
  }
  const auto& words = prose.words;
  static const PhraseSet k_pointers(k_pointer_phrases);
  if (k_pointers.found_in(words)) {
    return true;
  }
  if (!std::any_of(prose.tokens.begin(), prose.tokens.end(), is_place)) {
    return false;
  }
  static const PhraseSet k_weak_pointers(k_weak_pointer_phrases);
  if (k_weak_pointers.found_in(words)) {
    return true;
  }
  return std::any_of(words.begin(), words.end(),
                     [](const std::string& word) { return is_one_of<k_place_nouns>(word); });
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
  // Only the first two words count.
  constexpr std::size_t k_read = 2;
  auto words = words_of(strip_line_markup(clause), k_read);
  if (!words.empty() && is_one_of<k_clause_openers>(words.front())) {
    // Skip the leading clause: the instruction follows its comma.
    const auto comma = clause.find(',');
    if (comma == std::string_view::npos) {
      return false;
    }
    words = words_of(clause.substr(comma + 1), k_read);
  }
  if (words.empty()) {
    return false;
  }
  if (is_one_of<k_imperative_verbs>(words[0])) {
    return true;
  }
  return words.size() >= 2 && is_one_of<k_ambiguous_verbs>(words[0]) &&
         is_one_of<k_object_words>(words[1]);
}

// Whether the claim is an instruction; `words` are words_of(prose).
bool is_instruction(std::string_view prose, const std::vector<std::string>& words) {
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
  const auto prose_only = without_code(prose);
  // Most claims have no code span: then the two are one text, read once.
  const bool one_text = prose_only == prose;
  const auto outside_code = read(prose_only);
  const auto whole = one_text ? Reading{} : read(prose);
  if (is_reference(one_text ? outside_code : whole, outside_code)) {
    return ClaimKind::reference;
  }
  if (is_instruction(prose_only, outside_code.words)) {
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
