// Working append: line-based edits, so the agent's own formatting, comments
// and line endings in WORKING.md are never rewritten.
#include "cli/working_append.hpp"

#include "engram/text.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace engram::cli {

namespace {

// The level of an ATX heading line (1 to 6), or 0 for any other line.
int heading_level(std::string_view line) {
  line = text::without_eol(line);
  if (!text::is_heading(line)) {
    return 0;
  }
  return static_cast<int>(line.find_first_not_of('#') == std::string_view::npos
                              ? line.size()
                              : line.find_first_not_of('#'));
}

// A heading's text without its markers, trimmed, lower-cased (ASCII).
std::string heading_key(std::string_view line) {
  line = text::without_eol(line);
  line.remove_prefix(std::min(line.size(), line.find_first_not_of('#')));
  std::string key(line);
  while (!key.empty() && (key.back() == ' ' || key.back() == '\t' || key.back() == '#')) {
    key.pop_back();
  }
  key.erase(0, key.find_first_not_of(" \t"));
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return key;
}

// `section` trimmed and lower-cased, as heading_key gives it.
std::string section_key(std::string_view section) {
  return heading_key("## " + std::string(section));
}

} // namespace

std::string dated_item(const Date& date, std::string_view item_text, std::string_view eol) {
  while (!item_text.empty() && (item_text.back() == '\n' || item_text.back() == '\r')) {
    item_text.remove_suffix(1);
  }
  std::string item = "- " + date.to_string() + ": ";
  bool first = true;
  for (const auto& line : text::split_lines(item_text)) {
    if (!first) {
      item += "  ";
    }
    item += text::without_eol(line);
    item += eol;
    first = false;
  }
  if (first) {
    item += eol;
  }
  return item;
}

std::string diverted_item(const Date& date, std::string_view text, std::string_view section,
                          std::string_view eol) {
  // A section naming "-->" would close the comment early: its dashes are spaced out.
  std::string name(section);
  for (auto at = name.find("--"); at != std::string::npos; at = name.find("--", at)) {
    name.replace(at, 2, "- -");
  }
  return dated_item(date, text, eol) + "  <!-- diverted from WORKING.md: ## " + name + " -->" +
         std::string(eol);
}

std::string insert_under_section(std::string_view body, std::string_view section,
                                 std::string_view item, std::string_view eol) {
  auto lines = text::split_lines(body);
  const std::string wanted = section_key(section);
  std::size_t heading = lines.size();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (heading_level(lines[i]) == 2 && heading_key(lines[i]) == wanted) {
      heading = i;
      break;
    }
  }
  if (heading == lines.size()) {
    std::string out(body);
    if (!out.empty() && !out.ends_with('\n')) {
      out += eol;
    }
    if (!out.empty() && !text::is_blank(lines.back())) {
      out += eol;
    }
    return out + "## " + std::string(section) + std::string(eol) + std::string(eol) +
           std::string(item);
  }
  // The section runs to the next heading of level 1 or 2.
  std::size_t end = heading + 1;
  while (end < lines.size() && (heading_level(lines[end]) == 0 || heading_level(lines[end]) > 2)) {
    ++end;
  }
  std::size_t last = end - 1;
  while (last > heading && text::is_blank(lines[last])) {
    --last;
  }
  if (!lines[last].ends_with('\n')) {
    lines[last] += eol;
  }
  std::string inserted;
  if (last == heading) {
    inserted += eol; // a blank line between the heading and its first item
  }
  inserted += item;
  if (last + 1 == end && end < lines.size()) {
    inserted += eol; // keep a blank line before the next heading
  }
  std::string out;
  for (std::size_t i = 0; i <= last; ++i) {
    out += lines[i];
  }
  out += inserted;
  for (std::size_t i = last + 1; i < lines.size(); ++i) {
    out += lines[i];
  }
  return out;
}

std::string append_at_end(std::string_view body, std::string_view item, std::string_view eol) {
  std::string out(body);
  if (!out.empty() && !out.ends_with('\n')) {
    out += eol;
  }
  return out + std::string(item);
}

std::string overflow_header(const Date& today, std::int64_t retention_days) {
  // Byte for byte what rules/working-memory writes, so either may create the
  // file and the other append to it.
  const auto day = today.to_string();
  return "---\ntype: episodic\ntags: [working-memory]\nsalience: low\nconfidence: medium\n"
         "source: observed\nstatus: open\ncreated: " +
         day + "\nlast-accessed: " + day +
         "\nretention: temporary\ndecay-after: " + today.plus_days(retention_days).to_string() +
         "\n---\n# Moved out of working memory on " + day + "\n\n";
}

} // namespace engram::cli
