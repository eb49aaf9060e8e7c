// ClaimSections. A section's claims depend only on its bytes and on the
// headings in force before it (section_starts guarantees that), so a section
// found unchanged (in the bytes an edit left alone, before or after it) keeps
// its claims, even when the edit moved it.
#include "claims/sections.hpp"

#include "base/splice.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
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

SectionChange ClaimSections::update(std::string_view body, KindMemo* memo, Kinds kinds) {
  // The bytes the edit left alone: a common prefix and a common suffix.
  const std::string_view old = m_body;
  const auto limit = std::min(old.size(), body.size());
  const auto prefix = common_prefix(body, old, limit);
  if (m_split && prefix == body.size() && prefix == old.size()) {
    return {}; // unchanged
  }
  const auto suffix = common_suffix(body, old, limit - prefix);
  EditedStarts edited;
  if (m_split) {
    edited = section_starts_after_edit(body, old, m_begins, prefix, suffix);
  } else {
    edited.found = section_starts(body);
    edited.tail = m_begins.size();
  }
  // The new starts, read through the old ones (which stay as they are until the end).
  const auto start_at = [&](std::size_t k) { return edited.at(m_begins, k); };
  // Lines move by as many as the edit added or removed.
  const auto new_lines = static_cast<int>(std::count(body.begin() + static_cast<long>(prefix),
                                                     body.end() - static_cast<long>(suffix), '\n'));
  const auto old_lines = static_cast<int>(std::count(old.begin() + static_cast<long>(prefix),
                                                     old.end() - static_cast<long>(suffix), '\n'));
  const auto moved_from = body.size() - suffix; // bytes from here on are old bytes, moved
  const auto shift =
      static_cast<std::ptrdiff_t>(old.size()) - static_cast<std::ptrdiff_t>(body.size());
  const auto old_begin_of = [&](std::size_t begin) {
    return static_cast<std::size_t>(static_cast<std::ptrdiff_t>(begin) + shift);
  };
  const std::size_t m = m_sections.size();
  const std::size_t n = edited.size(m_begins);
  const auto end_of = [&](std::size_t k) { return k + 1 < n ? start_at(k + 1) : body.size(); };

  // The sections wholly before the edit stand: same bytes, same headings in
  // force. Those the new starts keep from the old ones, but the last, have
  // the same bounds, and their ends grow: the first that does not end before
  // the edit is found by bisection; the walk goes on from it.
  std::size_t front = 0;
  if (edited.kept > 1) {
    front = static_cast<std::size_t>(
        std::partition_point(m_sections.begin(),
                             m_sections.begin() + static_cast<std::ptrdiff_t>(edited.kept - 1),
                             [&](const PlacedSection& s) { return s.end <= prefix; }) -
        m_sections.begin());
  }
  while (front < std::min(m, n) && start_at(front) == m_sections[front].begin &&
         end_of(front) == m_sections[front].end && m_sections[front].end <= prefix) {
    ++front;
  }
  // The sections wholly after it moved with their bytes (headings checked below).
  std::size_t back = 0;
  while (back < std::min(m, n) - front) {
    const auto k = n - 1 - back;
    const auto& was = m_sections[m - 1 - back];
    const auto begin = start_at(k);
    if (begin < moved_from || was.begin != old_begin_of(begin) ||
        was.end - was.begin != end_of(k) - begin) {
      break;
    }
    ++back;
  }

  // The sections between: kept when an old one has their bytes and headings, else split.
  static const auto k_none = std::make_shared<const HeadingStack>();
  // The headings in force, as the previous section's `out` (no count taken:
  // each section's content is a heap object that stays where it is).
  const std::shared_ptr<const HeadingStack>* carried =
      front > 0 ? &m_sections[front - 1].content->out : &k_none;
  // Lines are counted from a known one: the body line at byte `counted` is `line`.
  std::size_t counted = front > 0 ? m_sections[front - 1].begin : 0;
  int line = front > 0 ? m_sections[front - 1].first_line : 1;
  const std::size_t claims_first =
      front > 0 ? m_sections[front - 1].first_claim + m_sections[front - 1].content->claims.size()
                : 0;
  std::size_t claims_at = claims_first;
  std::vector<PlacedSection> middle;
  const auto place = [&](std::size_t k) {
    const auto begin = start_at(k);
    const auto end = end_of(k);
    const auto& in = *carried;
    // The old section these bytes were, if the edit left them alone.
    PlacedSection* was = nullptr;
    bool moved = false;
    if (m_split && end <= prefix) {
      was = find(front, m - back, begin);
    } else if (m_split && begin >= moved_from) {
      was = find(front, m - back, old_begin_of(begin));
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
      // The splitter pops what the section's first heading ends, as it does in the whole body.
      auto made = std::make_shared<SectionClaims>();
      HeadingStack out;
      made->claims = split_section(body.substr(begin, end - begin), *in, &out, memo, kinds);
      made->in = in;
      made->out = out == *in ? in : std::make_shared<const HeadingStack>(std::move(out));
      content = std::move(made);
    }
    carried = &content->out;
    const auto claims = content->claims.size();
    middle.push_back({begin, end, line, claims_at, std::move(content)});
    claims_at += claims;
  };
  for (std::size_t k = front;; ++k) {
    if (k < n - back) {
      place(k);
      continue;
    }
    // The first moved section keeps its content only under the same headings;
    // when it does, so does every one after it, each under the last one's.
    if (back == 0) {
      break;
    }
    const auto& in = m_sections[m - back].content->in;
    if (in == *carried || *in == **carried) {
      break;
    }
    --back;
    --k; // place it, with the sections between
  }

  // The claims the sections between replace, then the new sections in their place.
  const auto old_tail_claim = back > 0 ? m_sections[m - back].first_claim : m_claims;
  const SectionChange change{front,
                             m - back - front,
                             middle.size(),
                             claims_first,
                             old_tail_claim - claims_first,
                             claims_at - claims_first};
  const auto line_shift = new_lines - old_lines;
  const auto claim_shift = static_cast<std::ptrdiff_t>(change.claims_added) -
                           static_cast<std::ptrdiff_t>(change.claims_removed);
  for (std::size_t i = m - back; i < m; ++i) {
    auto& section = m_sections[i];
    section.begin = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(section.begin) - shift);
    m_begins[i] = section.begin;
    section.end = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(section.end) - shift);
    section.first_line += line_shift;
    section.first_claim =
        static_cast<std::size_t>(static_cast<std::ptrdiff_t>(section.first_claim) + claim_shift);
  }
  std::vector<std::size_t> middle_begins;
  middle_begins.reserve(middle.size());
  for (const auto& section : middle) {
    middle_begins.push_back(section.begin);
  }
  splice(m_sections, front, change.removed, middle);
  splice(m_begins, front, change.removed, middle_begins);
  m_claims = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(m_claims) + claim_shift);
  // The body the same way: only the edited bytes are copied.
  m_body.replace(prefix, old.size() - prefix - suffix,
                 body.substr(prefix, body.size() - prefix - suffix));
  m_split = true;
  return change;
}

PlacedSection* ClaimSections::find(std::size_t from, std::size_t to, std::size_t begin) {
  const auto last = m_sections.begin() + static_cast<std::ptrdiff_t>(to);
  const auto it =
      std::lower_bound(m_sections.begin() + static_cast<std::ptrdiff_t>(from), last, begin,
                       [](const PlacedSection& s, std::size_t offset) { return s.begin < offset; });
  return it != last && it->begin == begin ? &*it : nullptr;
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
