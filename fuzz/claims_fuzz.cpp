// libFuzzer target for claims: splitting a body, normalising, classifying and
// comparing claims. Invariants, not just "no crash": each claim is a piece of
// the body starting on its own line, in order and disjoint; no word is lost
// outside what the splitter documents it drops (headings, HTML comments);
// normalise is idempotent; a claim and the claim as a list item prepare
// alike; the cheap relation() agrees with compare_claims().
#include "claims/classify.hpp"
#include "claims/compare.hpp"
#include "claims/normalise.hpp"
#include "claims/sections.hpp"
#include "claims/source.hpp"
#include "claims/split.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace claims = engram::claims;

namespace {

// Stops the run with a reason: a broken invariant is a finding.
[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "claims_fuzz: invariant broken: %s\n", what);
  std::abort();
}

// Whether a byte belongs to a word, as the splitter counts words: an ASCII
// letter or digit, or any byte of a non-ASCII character.
bool is_word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

// The text of a line from `begin` to `end` with its container prefix skipped:
// indentation, block-quote markers and list markers, any number of them.
std::string_view line_content(std::string_view body, std::size_t begin, std::size_t end) {
  std::string_view line = body.substr(begin, end - begin);
  for (bool changed = true; changed;) {
    changed = false;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t' || line.front() == '>')) {
      line.remove_prefix(1);
      changed = true;
    }
    if (line.size() >= 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') &&
        (line[1] == ' ' || line[1] == '\t')) {
      line.remove_prefix(2);
      changed = true;
    }
    std::size_t digits = 0;
    while (digits < line.size() && digits < 9 && line[digits] >= '0' && line[digits] <= '9') {
      ++digits;
    }
    if (digits > 0 && digits + 1 < line.size() && (line[digits] == '.' || line[digits] == ')') &&
        (line[digits + 1] == ' ' || line[digits + 1] == '\t')) {
      line.remove_prefix(digits + 2);
      changed = true;
    }
  }
  return line;
}

// Whether a line, prefix skipped, is a setext underline (=== or ---).
bool is_underline(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
    line.remove_suffix(1);
  }
  if (line.empty() || (line.front() != '=' && line.front() != '-')) {
    return false;
  }
  return line.find_first_not_of(line.front()) == std::string_view::npos;
}

// Whether a line holds only whitespace and container markers.
bool is_blank_line(std::string_view line) {
  return line.find_first_not_of(" \t\r\f\v>") == std::string_view::npos;
}

// Whether the byte at `offset` may be left out of every claim: it is inside an
// HTML comment (closed or not), or on a heading's line (ATX, or a setext
// heading's text, which runs to its underline).
bool may_be_dropped(std::string_view body, const claims::LineIndex& lines, std::size_t offset) {
  const auto open = body.rfind("<!--", offset);
  if (open != std::string_view::npos) {
    const auto close = body.find("-->", open + 4);
    if (close == std::string_view::npos || offset < close + 3) {
      return true;
    }
  }
  const auto begin = lines.line_begin(offset);
  if (line_content(body, begin, lines.line_end(offset)).starts_with('#')) {
    return true;
  }
  for (auto line = lines.next_line(offset); line < body.size(); line = lines.next_line(line)) {
    // The underline is read before list markers are skipped: "- " under a
    // paragraph line is a level-2 underline, not an empty item.
    auto raw = body.substr(line, lines.line_end(line) - line);
    raw.remove_prefix(std::min(raw.size(), raw.find_first_not_of(" \t>")));
    if (is_underline(raw)) {
      return true;
    }
    const auto content = line_content(body, line, lines.line_end(line));
    if (is_blank_line(content)) {
      return false;
    }
  }
  return false;
}

// Checks the claims of `body` against the body.
void check_split(std::string_view body) {
  const auto split = claims::split_claims(body);
  const claims::LineIndex lines(body);
  const int line_count = lines.line_of(body.size());
  std::vector<bool> covered(body.size(), false);
  std::size_t cursor = 0;
  for (const auto& claim : split) {
    if (claim.text.empty()) {
      fail("an empty claim");
    }
    if (claim.line < 1 || claim.line > line_count) {
      fail("a claim's line is outside the body");
    }
    if (claim.kind == engram::ClaimKind::solution ? claim.title.empty() : !claim.title.empty()) {
      fail("a title on a claim that is no solution, or a solution without one");
    }
    // The claim starts on its line, at or after the end of the one before.
    auto line_begin = std::size_t{0};
    for (std::size_t at = 0; at < body.size(); at = lines.next_line(at)) {
      if (lines.line_of(at) == claim.line) {
        line_begin = at;
        break;
      }
      if (lines.line_end(at) >= body.size()) {
        break;
      }
    }
    const auto at = body.find(claim.text, std::max(cursor, line_begin));
    if (at == std::string_view::npos) {
      fail("a claim that is not a piece of the body after the claim before it");
    }
    if (lines.line_of(at) != claim.line) {
      fail("a claim that does not start on its line");
    }
    std::fill(covered.begin() + static_cast<long>(at),
              covered.begin() + static_cast<long>(at + claim.text.size()), true);
    cursor = at + claim.text.size();
  }
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (!covered[i] && is_word_byte(body[i]) && !may_be_dropped(body, lines, i)) {
      std::fprintf(stderr, "claims_fuzz: byte %zu ('%c') of line %d is in no claim\n", i, body[i],
                   lines.line_of(i));
      fail("a word lost by splitting");
    }
  }

  // The section cuts: ascending from 0, inside the body, and the same when
  // found again after an edit as when found from scratch.
  const auto starts = claims::section_starts(body);
  if (starts.empty() || starts.front() != 0 || !std::is_sorted(starts.begin(), starts.end()) ||
      std::adjacent_find(starts.begin(), starts.end()) != starts.end() ||
      (body.size() > 0 && starts.back() >= body.size())) {
    fail("section starts out of order or outside the body");
  }
  if (body.size() >= 4) {
    // The edit: the middle third of the body replaced by its first byte repeated.
    const auto third = body.size() / 3;
    std::string edited(body.substr(0, third));
    edited.append(third / 2 + 1, body.front());
    edited.append(body.substr(2 * third));
    std::size_t prefix = 0;
    while (prefix < body.size() && prefix < edited.size() && body[prefix] == edited[prefix]) {
      ++prefix;
    }
    std::size_t suffix = 0;
    while (suffix + prefix < body.size() && suffix + prefix < edited.size() &&
           body[body.size() - 1 - suffix] == edited[edited.size() - 1 - suffix]) {
      ++suffix;
    }
    if (claims::section_starts_after_edit(edited, body, starts, prefix, suffix).all(starts) !=
        claims::section_starts(edited)) {
      fail("section_starts_after_edit differs from section_starts");
    }
    // The sections kept across the edit: the claims of splitting the edited
    // body, and outside the range the update reports, the claims from before.
    claims::ClaimSections sections;
    sections.update(body);
    const auto before = sections.claims();
    const auto change = sections.update(edited);
    const auto after = sections.claims();
    const auto fresh = claims::split_claims(edited);
    const auto same = [](const engram::Claim& a, const engram::Claim& b) {
      return a.text == b.text && a.line == b.line && a.kind == b.kind && a.context == b.context;
    };
    if (!std::equal(after.begin(), after.end(), fresh.begin(), fresh.end(), same)) {
      fail("sections kept across an edit differ from splitting the edited body");
    }
    if (change.claims_first + change.claims_removed > before.size() ||
        after.size() != before.size() - change.claims_removed + change.claims_added) {
      fail("a section update reports a range that does not add up");
    }
    const auto text_of = [](const engram::Claim& claim) { return claim.text; };
    const auto tail = before.size() - change.claims_first - change.claims_removed;
    for (std::size_t i = 0; i < change.claims_first; ++i) {
      if (text_of(after[i]) != text_of(before[i])) {
        fail("a claim before a section update's range changed");
      }
    }
    for (std::size_t i = 0; i < tail; ++i) {
      if (text_of(after[after.size() - 1 - i]) != text_of(before[before.size() - 1 - i])) {
        fail("a claim after a section update's range changed");
      }
    }
  }
  (void)claims::split_whole(body); // md4c's whole-document path must hold up too
}

// Checks normalising, classifying and comparing on a few claims.
void check_claims(const std::vector<std::string>& texts) {
  claims::KindMemo memo;
  std::vector<claims::PreparedClaim> prepared;
  for (const auto& text : texts) {
    const auto normal = claims::normalise(text);
    if (const auto again = claims::normalise(normal); again != normal) {
      std::fprintf(stderr, "claims_fuzz: [%s] -> [%s] -> [%s]\n", text.c_str(), normal.c_str(),
                   again.c_str());
      fail("normalise is not idempotent");
    }
    const auto kind = claims::classify(text);
    if (kind == engram::ClaimKind::solution || memo.classify(text) != kind ||
        memo.classify(text) != kind) {
      fail("classify gave a solution, or the memo disagrees");
    }
    prepared.push_back(claims::prepare(text));
    if (prepared.back().normal != normal) {
      fail("prepare's normal form is not normalise's");
    }
    // The claim index reuses a text's preparation for it as a list item, and
    // for the item with a superseded marker after it; and any text prepares
    // as what prepared_alike makes of it.
    const auto& bare = prepared.back();
    const auto alike = [](const claims::PreparedClaim& a, const claims::PreparedClaim& b) {
      return a.normal == b.normal && a.tokens.words == b.tokens.words &&
             a.tokens.values == b.tokens.values && a.tokens.negated == b.tokens.negated;
    };
    if (text.find('\n') == std::string::npos && claims::prepared_alike("- " + text) != text) {
      fail("a one-line claim as a list item is not told alike");
    }
    for (const auto& variant : {"- " + text, "- " + text + "\n  <!-- superseded 2026-11-22 -->"}) {
      if (!alike(claims::prepare(variant), bare)) {
        fail("a claim as a list item, or with a marker, prepares unlike the claim");
      }
    }
    for (std::string_view from = text, shorter = claims::prepared_alike(from); shorter != from;
         from = shorter, shorter = claims::prepared_alike(from)) {
      if (!alike(claims::prepare(shorter), bare)) {
        fail("a text prepares unlike what prepared_alike makes of it");
      }
    }
  }
  for (std::size_t i = 0; i < prepared.size(); ++i) {
    if (claims::relation(prepared[i], prepared[i]) != engram::Relation::duplicate) {
      fail("a claim is not a duplicate of itself");
    }
    for (std::size_t j = 0; j < prepared.size(); ++j) {
      for (const double threshold : {0.0, 0.5, 0.9, 1.0}) {
        const auto full = claims::compare_claims(prepared[i], prepared[j], threshold);
        if (full.score < 0.0 || full.score > 1.0 || full.reason.empty()) {
          fail("a comparison's score is outside [0, 1], or it has no reason");
        }
        if (claims::relation(prepared[i], prepared[j], threshold) != full.relation) {
          fail("relation() disagrees with compare_claims()");
        }
      }
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  check_split(body);

  // The claims to compare: the first few of the body, and the two halves of
  // the input split at its first NUL (so the fuzzer can shape a pair directly).
  std::vector<std::string> texts;
  for (auto& claim : claims::split_claims(body)) {
    if (texts.size() == 6) {
      break;
    }
    texts.push_back(std::move(claim.text));
  }
  const auto nul = body.find('\0');
  if (nul != std::string_view::npos) {
    texts.emplace_back(body.substr(0, nul));
    texts.emplace_back(body.substr(nul + 1));
  } else {
    texts.emplace_back(body);
  }
  check_claims(texts);
  return 0;
}
