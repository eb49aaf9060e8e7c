// ClaimSections. A section's claims depend only on its bytes and on the
// headings in force before it (section_starts guarantees that), so a section
// found unchanged (in the bytes an edit left alone, before or after it) keeps
// its claims, even when the edit moved it.
#include "claims/sections.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

namespace engram::claims {
namespace {

// How many bytes `a` and `b` share at their starts, looking at no more than `limit`.
std::size_t common_prefix(std::string_view a, std::string_view b, std::size_t limit) {
  constexpr std::size_t k_block = 256;
  std::size_t at = 0;
  while (at + k_block <= limit && std::memcmp(a.data() + at, b.data() + at, k_block) == 0) {
    at += k_block;
  }
  while (at < limit && a[at] == b[at]) {
    ++at;
  }
  return at;
}

// How many bytes `a` and `b` share at their ends, looking at no more than `limit`.
std::size_t common_suffix(std::string_view a, std::string_view b, std::size_t limit) {
  constexpr std::size_t k_block = 256;
  std::size_t n = 0;
  while (n + k_block <= limit && std::memcmp(a.data() + a.size() - n - k_block,
                                             b.data() + b.size() - n - k_block, k_block) == 0) {
    n += k_block;
  }
  while (n < limit && a[a.size() - 1 - n] == b[b.size() - 1 - n]) {
    ++n;
  }
  return n;
}

} // namespace

void ClaimSections::update(std::string_view body, KindMemo* memo, Kinds kinds) {
  // The bytes the edit left alone: a common prefix and a common suffix.
  const std::string_view old = m_body;
  const auto limit = std::min(old.size(), body.size());
  const auto prefix = common_prefix(body, old, limit);
  if (m_split && prefix == body.size() && prefix == old.size()) {
    return; // unchanged
  }
  const auto suffix = common_suffix(body, old, limit - prefix);
  const auto starts = m_split ? section_starts_after_edit(body, old, begins(), prefix, suffix)
                              : section_starts(body);
  // Lines move by as many as the edit added or removed.
  const auto new_lines = static_cast<int>(std::count(body.begin() + static_cast<long>(prefix),
                                                     body.end() - static_cast<long>(suffix), '\n'));
  const auto old_lines = static_cast<int>(std::count(old.begin() + static_cast<long>(prefix),
                                                     old.end() - static_cast<long>(suffix), '\n'));
  const auto moved_from = body.size() - suffix; // bytes from here on are old bytes, moved
  const auto shift =
      static_cast<std::ptrdiff_t>(old.size()) - static_cast<std::ptrdiff_t>(body.size());

  std::vector<PlacedSection> sections;
  sections.reserve(starts.size());
  static const auto k_none = std::make_shared<const HeadingStack>();
  // The headings in force, as the previous section's `out` (no count taken:
  // each section's content is a heap object that stays where it is).
  const std::shared_ptr<const HeadingStack>* carried = &k_none;
  std::size_t counted = 0; // the body line at `counted` is `line`
  int line = 1;
  // Old sections sit at the same index before the edit and at the same
  // distance from the end after it; find() is asked only when they do not.
  const auto at_index = [&](std::size_t index, std::size_t offset) -> PlacedSection* {
    return index < m_sections.size() && m_sections[index].begin == offset ? &m_sections[index]
                                                                          : nullptr;
  };
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const auto begin = starts[k];
    const auto end = k + 1 < starts.size() ? starts[k + 1] : body.size();
    const auto text = body.substr(begin, end - begin);
    // The splitter pops what the section's first heading ends, as it does in the whole body.
    const auto& in = *carried;

    // The old section these bytes were, if the edit left them alone.
    PlacedSection* was = nullptr;
    bool moved = false;
    if (m_split && end <= prefix) {
      was = at_index(k, begin);
      if (was == nullptr) {
        was = find(begin);
      }
    } else if (m_split && begin >= moved_from) {
      const auto old_begin = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(begin) + shift);
      const auto from_end = starts.size() - k; // the same count of sections follow it
      was = from_end <= m_sections.size() ? at_index(m_sections.size() - from_end, old_begin)
                                          : nullptr;
      if (was == nullptr) {
        was = find(old_begin);
      }
      moved = true;
    }
    if (was != nullptr && (was->content == nullptr || was->end - was->begin != end - begin ||
                           (was->content->in != in && *was->content->in != *in))) {
      was = nullptr;
    }
    if (was != nullptr) {
      line = was->first_line + (moved ? new_lines - old_lines : 0);
    } else {
      line += static_cast<int>(std::count(body.begin() + static_cast<long>(counted),
                                          body.begin() + static_cast<long>(begin), '\n'));
    }
    counted = begin;
    std::shared_ptr<const SectionClaims> content;
    if (was != nullptr) {
      content = std::move(was->content); // each old section is taken once
    } else {
      auto made = std::make_shared<SectionClaims>();
      HeadingStack out;
      made->claims = split_section(text, *in, &out, memo, kinds);
      made->in = in;
      made->out = out == *in ? in : std::make_shared<const HeadingStack>(std::move(out));
      content = std::move(made);
    }
    carried = &content->out;
    sections.push_back({begin, end, line, std::move(content)});
  }
  m_sections = std::move(sections);
  m_body.assign(body);
  m_split = true;
}

std::vector<std::size_t> ClaimSections::begins() const {
  std::vector<std::size_t> out;
  out.reserve(m_sections.size());
  for (const auto& section : m_sections) {
    out.push_back(section.begin);
  }
  return out;
}

PlacedSection* ClaimSections::find(std::size_t begin) {
  const auto it =
      std::lower_bound(m_sections.begin(), m_sections.end(), begin,
                       [](const PlacedSection& s, std::size_t offset) { return s.begin < offset; });
  return it != m_sections.end() && it->begin == begin ? &*it : nullptr;
}

std::vector<Claim> ClaimSections::claims() const {
  std::vector<Claim> out;
  for (const auto& section : m_sections) {
    for (auto claim : section.content->claims) {
      claim.line += section.first_line - 1;
      out.push_back(std::move(claim));
    }
  }
  return out;
}

} // namespace engram::claims
