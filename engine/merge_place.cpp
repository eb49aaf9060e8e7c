// Merge place: finding a claim's section by its heading path, and adding it
// there or at the end (engine/merge_place.hpp).
#include "engine/merge_place.hpp"

#include "claims/blocks.hpp"
#include "claims/source.hpp"

#include <algorithm>
#include <engram/section_edits.hpp>
#include <engram/text.hpp>
#include <optional>

namespace engram::engine::merge {
namespace {

// A heading of a body and the path it opens.
struct PlacedHeading {
  std::size_t line = 0;      // where its line starts
  std::vector<Heading> path; // the headings in force after it, itself last
};

// What placing needs of a body: its headings, and each block's kind and start.
struct Outline {
  std::vector<PlacedHeading> headings;
  std::vector<std::pair<std::size_t, claims::BlockKind>> blocks;
};

// Where the line holding byte `at` starts.
std::size_t line_start(std::string_view body, std::size_t at) {
  const auto newline = at == 0 ? std::string_view::npos : body.rfind('\n', at - 1);
  return newline == std::string_view::npos ? 0 : newline + 1;
}

// True when two heading paths name the same headings, whatever their levels,
// as a claim's context does.
bool same_path(const std::vector<Heading>& a, const std::vector<Heading>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const auto& x, const auto& y) { return x.text == y.text; });
}

// The body's headings and blocks, as split_claims reads them.
Outline outline(std::string_view body) {
  Outline out;
  std::vector<Heading> stack;
  for (const auto& block : claims::parse_blocks(body)) {
    if (!block.text) {
      continue; // split_claims reads no block without text, a heading included
    }
    out.blocks.emplace_back(block.text->begin, block.kind);
    if (block.kind != claims::BlockKind::heading) {
      continue;
    }
    while (!stack.empty() && stack.back().level >= block.level) {
      stack.pop_back();
    }
    std::string text = block.heading;
    while (!text.empty() && claims::is_space(text.back())) {
      text.pop_back();
    }
    stack.push_back({block.level, std::move(text)});
    out.headings.push_back({line_start(body, block.text->begin), stack});
  }
  return out;
}

// True when the last block that starts before `at` is a list item.
bool list_before(const Outline& outline, std::size_t at) {
  std::optional<claims::BlockKind> last;
  for (const auto& [begin, kind] : outline.blocks) {
    if (begin >= at) {
      break;
    }
    last = kind;
  }
  return last == claims::BlockKind::list_item;
}

// `body` with `entry` at the end of `section`: a list item joins a list that
// ends the section, anything else follows a blank line.
std::string inserted(std::string body, const Outline& outline, const sections::Section& section,
                     const std::string& entry) {
  auto splice = sections::section_insertion(body, section, entry);
  const bool joins = text::starts_list_item(entry) && list_before(outline, splice.at);
  if (splice.at == 0) {
    splice.text.erase(0, 1); // the body's first line: no line before to end
  } else if (!joins) {
    splice = sections::section_insertion(body, section, "\n" + entry);
  }
  body.replace(splice.at, splice.count, splice.text);
  return body;
}

// `body` with `entry` appended under `headings`: only those its end is not
// under yet, when adding them there gives the entry exactly that path.
std::string appended_under(std::string body, const Outline& outline,
                           const std::vector<Heading>& headings, const std::string& entry) {
  const auto& end =
      outline.headings.empty() ? std::vector<Heading>{} : outline.headings.back().path;
  std::size_t shared = 0;
  while (shared < end.size() && shared < headings.size() &&
         end[shared].text == headings[shared].text) {
    ++shared;
  }
  // A heading closes those at its level or deeper, and only those: the
  // shared ones must stay open above it, all the others must close.
  for (std::size_t i = 0; i < end.size() && shared < headings.size(); ++i) {
    if ((i < shared) != (end[i].level < headings[shared].level)) {
      shared = 0;
      break;
    }
  }
  std::string block;
  for (std::size_t i = shared; i < headings.size(); ++i) {
    block += std::string(static_cast<std::size_t>(headings[i].level), '#') + " " +
             headings[i].text + "\n\n";
  }
  block += entry;
  return sections::appended(std::move(body), block, !text::starts_list_item(block));
}

} // namespace

std::vector<Heading> headings_at(std::string_view body, std::size_t at) {
  std::vector<Heading> path;
  for (auto& heading : outline(body).headings) {
    if (heading.line > at) {
      break;
    }
    path = std::move(heading.path);
  }
  return path;
}

std::string with_entry(std::string body, const std::string& entry,
                       const std::vector<Heading>& headings) {
  if (text::is_heading(text::without_eol(entry.substr(0, entry.find('\n'))))) {
    return sections::appended(std::move(body), entry, true);
  }
  const auto found = outline(body);
  for (std::size_t i = 0; i < found.headings.size(); ++i) {
    if (same_path(found.headings[i].path, headings)) {
      const auto end = i + 1 < found.headings.size() ? found.headings[i + 1].line : body.size();
      return inserted(std::move(body), found, {found.headings[i].line, end}, entry);
    }
  }
  if (headings.empty() && !found.headings.empty()) {
    return inserted(std::move(body), found, {0, found.headings.front().line}, entry);
  }
  return appended_under(std::move(body), found, headings, entry);
}

} // namespace engram::engine::merge
