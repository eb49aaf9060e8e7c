// git's own progress (see git_progress.hpp).
#include "git/git_progress.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace engram::git {

namespace {

// The number at the start of `text`, and what follows it.
std::optional<std::size_t> number(std::string_view& text) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) {
    return std::nullopt;
  }
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

// True for the lines git prints around its progress that say nothing a
// failure needs: a phase's last "Enumerating objects: 90, done.", its
// thread count, its totals.
bool chatter(std::string_view piece) {
  return piece.ends_with(", done.") || piece.starts_with("Delta compression using") ||
         piece.starts_with("Total ");
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

} // namespace

std::optional<ProgressReport> parse_progress(std::string_view piece) {
  // "<Step>: <spaces><percent>% (<done>/<total>)[, <throughput>][, done.]"
  const auto colon = piece.find(": ");
  const auto open = piece.find("% (");
  if (colon == std::string_view::npos || open == std::string_view::npos || open < colon) {
    return std::nullopt;
  }
  std::string_view rest = piece.substr(open + 3);
  const auto done = number(rest);
  if (!done || !rest.starts_with('/')) {
    return std::nullopt;
  }
  rest.remove_prefix(1);
  const auto total = number(rest);
  if (!total || !rest.starts_with(')')) {
    return std::nullopt;
  }
  return ProgressReport{lower(piece.substr(0, colon)), *done, *total};
}

ErrorSorter::ErrorSorter(GitProgress progress, std::string& said, std::size_t limit)
    : m_progress(std::move(progress)), m_said(said), m_limit(limit) {}

void ErrorSorter::feed(std::string_view bytes) {
  m_pending.append(bytes);
  std::size_t start = 0;
  for (std::size_t end = m_pending.find_first_of("\r\n"); end != std::string::npos;
       end = m_pending.find_first_of("\r\n", start)) {
    sort(std::string_view(m_pending).substr(start, end - start));
    start = end + 1;
  }
  m_pending.erase(0, start);
}

void ErrorSorter::finish() {
  sort(m_pending);
  m_pending.clear();
}

void ErrorSorter::sort(std::string_view piece) {
  if (piece.empty()) {
    return;
  }
  if (auto report = parse_progress(piece)) {
    if (m_progress) {
      m_progress(report->step, report->done, report->total);
    }
    return;
  }
  if (chatter(piece) || m_said.size() >= m_limit) {
    return;
  }
  const std::string line = std::string(piece) + '\n';
  m_said.append(line, 0, m_limit - m_said.size());
}

} // namespace engram::git
