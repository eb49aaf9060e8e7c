// Section edits: adding a block to a Markdown body at the end of one of its
// sections, or at its end, so that what is added reads as part of the list or
// section it joins. Part of the plugin SDK (since 1.1); header-only, one copy
// that the rules and the host's merge both use.
#pragma once

#include "engram/text.hpp"

#include <cstddef>
#include <string>

namespace engram::sections {

// Where a section of a body starts and ends.
struct Section {
  std::size_t heading; // offset of the heading line
  std::size_t end;     // offset just past the section
};

// An edit of a body: `count` bytes at `at` become `text`.
struct Splice {
  std::size_t at = 0;
  std::size_t count = 0;
  std::string text;
};

// What appending a block to a body adds at its end: a list item joins a list
// that ends the body, anything else starts a paragraph of its own.
inline std::string appendix(const std::string& body, const std::string& block, bool as_paragraph) {
  std::string out;
  if (!body.empty() && body.back() != '\n') {
    out += '\n';
  }
  // The last non-blank line, found from the end: the body can be long.
  bool ends_in_item = false;
  std::size_t end = body.size();
  while (end > 0) {
    const auto newline = end >= 2 ? body.rfind('\n', end - 2) : std::string::npos;
    const std::size_t begin = newline == std::string::npos ? 0 : newline + 1;
    const std::string_view line = std::string_view(body).substr(begin, end - begin);
    if (!text::is_blank(line)) {
      ends_in_item = text::starts_list_item(line);
      break;
    }
    end = begin;
  }
  if (!body.empty() && (as_paragraph || !ends_in_item) && !body.ends_with("\n\n")) {
    out += '\n';
  }
  out += block;
  if (!block.ends_with('\n')) {
    out += '\n';
  }
  return out;
}

// A body with a block appended (see appendix), in place.
inline std::string appended(std::string body, const std::string& block, bool as_paragraph) {
  body += appendix(body, block, as_paragraph);
  return body;
}

// Inserting a block at the end of a section, after its last non-blank line.
inline Splice section_insertion(const std::string& body, const Section& section,
                                const std::string& block) {
  std::size_t at = section.end;
  while (at > section.heading &&
         (body[at - 1] == '\n' || body[at - 1] == '\r' || body[at - 1] == ' ')) {
    --at;
  }
  // The blank lines after the section's last line give way to one.
  const auto content = body.find_first_not_of("\r\n ", at);
  Splice splice{at, (content == std::string::npos ? body.size() : content) - at, "\n" + block};
  if (!block.ends_with('\n')) {
    splice.text += '\n';
  }
  if (content != std::string::npos) {
    splice.text += '\n';
  }
  return splice;
}

// A body with a block inserted into one of its sections (see section_insertion).
inline std::string insert_in_section(std::string body, const Section& section,
                                     const std::string& block) {
  const auto splice = section_insertion(body, section, block);
  body.replace(splice.at, splice.count, splice.text);
  return body;
}

} // namespace engram::sections
