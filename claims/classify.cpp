// Classification by keywords and shapes. Deterministic and explainable on
// purpose: the same claim always lands in the same layer, and a user can see
// from the claim's words why it went there.
#include "claims/classify.hpp"

#include "claims/classify_detail.hpp"
#include "claims/normalise.hpp"
#include "claims/tokens.hpp"
#include "claims/words.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace engram::claims {
namespace {

// Phrases that make any claim a pointer.
constexpr std::array<std::string_view, 17> k_pointer_phrases = {
    "can be found",     "could be found",   "is found at",    "are found at",   "is found in",
    "are found in",     "is located at",    "is located in",  "are located at", "are located in",
    "is documented at", "is documented in", "are documented", "refer to",       "docs at",
    "documentation at", "documented at",
};

// Phrases that make a claim a pointer when a path, link or #channel follows
// somewhere ("The config lives in /etc/x", not "Aunt Rosa lives in Porto").
constexpr std::array<std::string_view, 13> k_weak_pointer_phrases = {
    "is at",      "are at",      "see",          "docs are",      "documentation is",
    "is kept at", "are kept at", "is stored at", "are stored at", "lives in",
    "lives at",   "lives on",    "live in",
};

// Phrases that say where something is kept: a pointer when a path or a
// place things are kept in ("the Vanta workspace", "Drive") is named.
constexpr std::array<std::string_view, 20> k_storage_phrases = {
    "is in",         "are in",       "is kept in",     "are kept in",     "is stored in",
    "are stored in", "is saved in",  "are saved in",   "is scanned into", "are scanned into",
    "is filed in",   "are filed in", "is filed under", "are filed under", "is under",
    "are under",     "lives in",     "live in",        "is kept under",   "are kept under",
};

// Places things are kept in, named by their kind or their product.
constexpr std::array<std::string_view, 29> k_storage_nouns = {
    "folder",     "drive",  "dropbox",    "repository", "repo",        "workspace",
    "app",        "bucket", "directory",  "vault",      "pagerduty",   "figma",
    "docusign",   "vanta",  "sharepoint", "onedrive",   "icloud",      "notion",
    "confluence", "wiki",   "project",    "board",      "spreadsheet", "sheet",
    "album",      "inbox",  "calendar",   "outlook",    "gmail",
};

// Whether `words` name a place things are kept in. A product one works at
// or for ("designer at Figma", "works for Dropbox") is an employer.
bool names_storage(const std::vector<std::string>& words) {
  for (std::size_t w = 0; w < words.size(); ++w) {
    const bool employer = w > 0 && (words[w - 1] == "at" || words[w - 1] == "for");
    if (!employer && detail::is_one_of<k_storage_nouns>(words[w])) {
      return true;
    }
  }
  return false;
}

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

// Verbs that report an instruction someone gave ("Ana asked to keep …",
// "The user asked us to …"), when "to" and a verb other than "be" follow;
// and ones that do only with "me" or "us" between ("Ana wants to move to
// Berlin" is a wish, "Ana wants us to squash merges" an instruction).
constexpr std::array<std::string_view, 3> k_reported_asks = {"asked", "instructed", "reminded"};
constexpr std::array<std::string_view, 3> k_reported_wishes = {"told", "wants", "wanted"};

// Verbs that start an instruction whatever follows them.
constexpr std::array<std::string_view, 64> k_imperative_verbs = {
    "run",     "use",     "check",    "verify",  "add",      "install", "ask",       "avoid",
    "prefer",  "ensure",  "keep",     "try",     "restart",  "rerun",   "remove",    "delete",
    "create",  "put",     "include",  "confirm", "validate", "rebuild", "mention",   "consider",
    "retry",   "wait",    "skip",     "follow",  "treat",    "tell",    "reply",     "respond",
    "prepend", "append",  "rename",   "inspect", "compare",  "grep",    "rebase",    "squash",
    "bump",    "revert",  "reboot",   "unset",   "enable",   "disable", "configure", "upgrade",
    "edit",    "replace", "escalate", "lead",    "double",   "triple",  "offer",     "send",
    "notify",  "cc",      "loop",     "escape",  "quote",    "wrap",    "prefix",    "drain",
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

// How many words of a clause a copula is looked for in, to tell a
// statement ("Miso the cat is four") from an instruction ("Offer a refund").
constexpr std::size_t k_statement_reach = 5;

// Determiners: after a first word, they show it is a verb.
constexpr std::array<std::string_view, 9> k_instruction_determiners = {
    "a", "an", "the", "your", "every", "each", "any", "all", "this",
};

// Words that open a leading clause: "When X fails, rerun it" instructs.
constexpr std::array<std::string_view, 19> k_clause_openers = {
    "when", "if",     "before", "after",  "once",  "whenever", "to",    "while", "in",       "for",
    "on",   "during", "with",   "unless", "until", "from",     "since", "as",    "starting",
};

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

// Whether a token after "under" is a folder path within a tool ("under
// Macros/Billing"): one slash there joins folders, not "and/or".
bool names_folder_under(const std::vector<std::string_view>& tokens) {
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    const auto token = without_marks(tokens[i]);
    const auto slash = token.find('/');
    if (slash != std::string_view::npos && slash > 0 && slash + 1 < token.size() &&
        (tokens[i - 1] == "under" || tokens[i - 1] == "Under")) {
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
    static const PhraseSet k_storage_places(k_storage_phrases);
    return k_storage_places.found_in(words) &&
           (names_folder_under(prose.tokens) || names_storage(words));
  }
  static const PhraseSet k_weak_pointers(k_weak_pointer_phrases);
  static const PhraseSet k_storage(k_storage_phrases);
  if (k_weak_pointers.found_in(words) || k_storage.found_in(words)) {
    return true;
  }
  return std::any_of(words.begin(), words.end(), [](const std::string& word) {
    return detail::is_one_of<k_place_nouns>(word);
  });
}

// Whether `words` report an instruction: an asking verb, maybe "me" or
// "us", then "to" and a verb ("asked to be added" is a request, not a rule).
bool reports_instruction(const std::vector<std::string>& words) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    const bool asks = detail::is_one_of<k_reported_asks>(words[i]);
    if (!asks && !detail::is_one_of<k_reported_wishes>(words[i])) {
      continue;
    }
    auto to = i + 1;
    if (to < words.size() && (words[to] == "me" || words[to] == "us")) {
      ++to;
    } else if (!asks) {
      continue;
    }
    if (to + 1 < words.size() && words[to] == "to" && words[to + 1] != "be") {
      return true;
    }
  }
  return false;
}

// Whether the claim is an instruction; `words` are words_of(prose).
bool is_instruction(std::string_view prose, const std::vector<std::string>& words) {
  static const PhraseSet k_instructions(k_instruction_phrases);
  if (k_instructions.found_in(words)) {
    return true;
  }
  if (reports_instruction(words)) {
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
      if (detail::starts_imperative(prose.substr(begin, i - begin))) {
        return true;
      }
      begin = i + 1;
    }
  }
  return false;
}

// Most words after a label for a place to make it a pointer ("Design
// files: Figma project Checkout v3"); more is a sentence about the place.
constexpr std::size_t k_label_place_words = 6;

// Most words of a label ("Time zone of the session: …").
constexpr std::size_t k_label_words = 6;

// Whether a line's label says that an instruction follows: its last word is
// one of these ("Rule", "Style guideline", "Feedback" as Claude Code names
// the user's corrections of how it works).
constexpr std::array<std::string_view, 8> k_instruction_labels = {
    "rule",       "rules",       "feedback",     "guideline",
    "guidelines", "instruction", "instructions", "convention",
};

bool names_instruction(std::string_view label) {
  return detail::is_one_of<k_instruction_labels>(label.substr(label.rfind(' ') + 1));
}

} // namespace

namespace detail {

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
  if (words.size() >= 2 && is_one_of<k_ambiguous_verbs>(words[0]) &&
      is_one_of<k_object_words>(words[1])) {
    return true;
  }
  // A verb no list names, shown by the determiner after it ("Offer a
  // refund"); not a label ("Note: the VPN …"), a third-person verb ("Runs
  // the job"), or a name in apposition ("Miso the cat is four").
  if (words.size() < 2 || !is_one_of<k_instruction_determiners>(words[1]) ||
      words[0].ends_with('s') || words[0].ends_with("ing") || words[0].ends_with("ed") ||
      is_one_of<k_object_words>(words[0]) || is_stopword(words[0])) {
    return false;
  }
  const auto text = strip_line_markup(clause);
  const auto after_first = text.find_first_of(" :*_", 0);
  if (after_first != std::string_view::npos &&
      text.substr(after_first).find_first_not_of("*_") != std::string_view::npos &&
      text[text.find_first_not_of("*_", after_first)] == ':') {
    return false;
  }
  const auto opening = words_of(text, k_statement_reach);
  return std::none_of(opening.begin(), opening.end(), [](const std::string& w) {
    return w == "is" || w == "are" || w == "was" || w == "were";
  });
}

// A line's label and the rest: "**Label**: value", "Label: value" or
// "Label — value" with a label of at most six words; nullopt otherwise.
std::optional<std::pair<std::string, std::string_view>> label_of(std::string_view line) {
  const auto stripped = strip_line_markup(line);
  auto colon = stripped.find(':');
  auto dash = stripped.find(" \xE2\x80\x94 "); // an em dash between spaces
  if (colon == std::string_view::npos && dash == std::string_view::npos) {
    return std::nullopt;
  }
  const auto end = std::min(colon, dash);
  const auto label_words = words_of(stripped.substr(0, end));
  if (label_words.empty() || label_words.size() > k_label_words) {
    return std::nullopt;
  }
  std::string label;
  for (const auto& word : label_words) {
    label += (label.empty() ? "" : " ") + word;
  }
  return std::pair{label, stripped.substr(end + 1)};
}

} // namespace detail

ClaimKind classify(std::string_view text) {
  if (detail::is_session_metadata(text)) {
    return ClaimKind::metadata;
  }
  if (detail::is_task(text)) {
    return ClaimKind::task;
  }
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
  // "Benchmarks: bench/RESULTS.md", "Design files: Figma project …": a label, then a place.
  if (const auto label = detail::label_of(prose_only)) {
    const auto value = read(label->second);
    const bool place = std::any_of(value.tokens.begin(), value.tokens.end(), is_place) ||
                       names_storage(value.words);
    if (place && value.words.size() <= k_label_place_words) {
      return ClaimKind::reference;
    }
  }
  // "**Feedback:** stop adding a summary", "Rule: no emojis": the label names
  // an instruction, or the instruction follows it.
  if (const auto label = detail::label_of(prose_only);
      label && (names_instruction(label->first) || detail::starts_imperative(label->second))) {
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