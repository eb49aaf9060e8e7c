// Claim text as CORE.md shows it: one line, without its list marker, its
// task box or the superseded markers it carries, so the same claim reads the
// same wherever it came from.
#pragma once

#include "../shared/knowledge.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace engram::promotion {

// A claim's text on one line, markers, list marker and task box left out.
// Called for every claim of every session: built in one pass, without a
// copy at each step.
inline std::string claim_line(std::string_view claim) {
  const std::string own = knowledge::split_markers(claim).own;
  // On one line, line breaks being spaces: leading blanks of either kind go.
  const auto start = own.find_first_not_of(" \t\n\r");
  if (start == std::string::npos) {
    return {};
  }
  const std::string joined = knowledge::one_line(std::string_view(own).substr(start));
  std::string_view text = joined;
  if (text::starts_list_item(text)) {
    text = text.substr(text.find(' ') + 1);
  }
  for (std::string_view box : {"[ ] ", "[x] ", "[X] "}) {
    if (text.starts_with(box)) {
      text.remove_prefix(box.size());
    }
  }
  // Runs of spaces a line join left collapse to one.
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\t') {
      c = ' ';
    }
    if (c == ' ' && (out.empty() || out.back() == ' ')) {
      continue;
    }
    out += c;
  }
  while (!out.empty() && out.back() == ' ') {
    out.pop_back();
  }
  return out;
}

// The claims of each file, split once per run: Deep Truths and the core
// blocks read the same episodic files, and splitting costs more than reading.
// Valid while the files it has read do not change (the rule writes only CORE.md).
// Only procedural claims are classified: the behavioral_patterns block keeps
// instructions; everything else promotion reads is a claim's text (and
// whether it is a solution, which an unclassified claim still says).
class ClaimCache {
public:
  explicit ClaimCache(const StoreView& store)
      : m_store(store), m_classified(store.layer_path(Layer::procedural) + "/") {}

  // The claims of `path`'s body.
  const std::vector<Claim>& of(const std::string& path) {
    auto it = m_claims.find(path);
    if (it == m_claims.end()) {
      const auto detail =
          path.starts_with(m_classified) ? ClaimDetail::classified : ClaimDetail::unclassified;
      it = m_claims.emplace(path, m_store.claims_of(path, detail)).first;
    }
    return it->second;
  }

  // claim_line of each claim of `path`, in order: Deep Truths and the core
  // blocks both read every session's claims as lines.
  const std::vector<std::string>& lines(const std::string& path) {
    auto it = m_lines.find(path);
    if (it == m_lines.end()) {
      std::vector<std::string> lines;
      for (const auto& claim : of(path)) {
        lines.push_back(claim_line(claim.text));
      }
      it = m_lines.emplace(path, std::move(lines)).first;
    }
    return it->second;
  }

private:
  const StoreView& m_store;
  std::string m_classified; // the folder whose claims get their kinds
  std::map<std::string, std::vector<Claim>> m_claims;
  std::map<std::string, std::vector<std::string>> m_lines;
};

} // namespace engram::promotion
