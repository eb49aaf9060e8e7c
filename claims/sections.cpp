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
#include <span>

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

// An edit of the body, as update reads it: the bytes it left alone at each
// end, and the edited body's section starts said against the old ones (which
// stay as they are until update replaces the sections between).
struct ClaimSections::Edit {
  std::string_view body;
  std::string_view old;
  std::size_t prefix = 0;
  std::size_t suffix = 0;
  std::span<const std::size_t> old_starts;
  EditedStarts starts;
  std::size_t n = 0;          // how many sections the edited body has
  std::size_t moved_from = 0; // bytes from here on are old bytes, moved
  std::ptrdiff_t shift = 0;   // the old body's size less the edited one's
  int line_shift = 0;         // lines move by as many as the edit added or removed

  // Where the edited body's section `k` starts.
  [[nodiscard]] std::size_t start_at(std::size_t k) const { return starts.at(old_starts, k); }
  // Where the edited body's section `k` ends.
  [[nodiscard]] std::size_t end_of(std::size_t k) const {
    return k + 1 < n ? start_at(k + 1) : body.size();
  }
  // Where the old bytes that now start at `begin` (after the edit) started.
  [[nodiscard]] std::size_t old_begin_of(std::size_t begin) const {
    return static_cast<std::size_t>(static_cast<std::ptrdiff_t>(begin) + shift);
  }
};

// The sections between those update keeps in front and those that moved, as
// it places them one by one.
struct ClaimSections::Placing {
  std::size_t front = 0; // the sections before stand
  std::size_t back = 0;  // how many of the last sections moved with their bytes
  // The headings in force, as the previous section's `out` (no count taken:
  // each section's content is a heap object that stays where it is).
  const std::shared_ptr<const HeadingStack>* carried = nullptr;
  // Lines are counted from a known one: the body line at byte `counted` is `line`.
  std::size_t counted = 0;
  int line = 1;
  std::size_t claims_first = 0; // the body's claims before the first section placed
  std::size_t claims_at = 0;    // and before the next one
  std::vector<PlacedSection> middle;
};

SectionChange ClaimSections::update(std::string_view body, KindMemo* memo, Kinds kinds) {
  // The bytes the edit left alone: a common prefix and a common suffix.
  const std::string_view old = m_body;
  const auto limit = std::min(old.size(), body.size());
  const auto prefix = common_prefix(body, old, limit);
  if (m_split && prefix == body.size() && prefix == old.size()) {
    return {}; // unchanged
  }
  const auto suffix = common_suffix(body, old, limit - prefix);
  const Edit edit = read_edit(body, prefix, suffix);
  const auto front = kept_front(edit);
  Placing placing = start_placing(front, moved_back(edit, front));
  place_between(edit, placing, memo, kinds);
  return replace_between(edit, placing);
}

ClaimSections::Edit ClaimSections::read_edit(std::string_view body, std::size_t prefix,
                                             std::size_t suffix) const {
  Edit edit;
  edit.body = body;
  edit.old = m_body;
  edit.prefix = prefix;
  edit.suffix = suffix;
  edit.old_starts = m_begins;
  if (m_split) {
    edit.starts = section_starts_after_edit(body, edit.old, m_begins, prefix, suffix);
  } else {
    edit.starts.found = section_starts(body);
    edit.starts.tail = m_begins.size();
  }
  const auto new_lines = static_cast<int>(std::count(body.begin() + static_cast<long>(prefix),
                                                     body.end() - static_cast<long>(suffix), '\n'));
  const auto old_lines =
      static_cast<int>(std::count(edit.old.begin() + static_cast<long>(prefix),
                                  edit.old.end() - static_cast<long>(suffix), '\n'));
  edit.line_shift = new_lines - old_lines;
  edit.moved_from = body.size() - suffix;
  edit.shift =
      static_cast<std::ptrdiff_t>(edit.old.size()) - static_cast<std::ptrdiff_t>(body.size());
  edit.n = edit.starts.size(m_begins);
  return edit;
}

std::size_t ClaimSections::kept_front(const Edit& edit) const {
  // The sections wholly before the edit stand: same bytes, same headings in
  // force. Those the new starts keep from the old ones, but the last, have
  // the same bounds, and their ends grow: the first that does not end before
  // the edit is found by bisection; the walk goes on from it.
  const std::size_t m = m_sections.size();
  std::size_t front = 0;
  if (edit.starts.kept > 1) {
    front = static_cast<std::size_t>(
        std::partition_point(m_sections.begin(),
                             m_sections.begin() + static_cast<std::ptrdiff_t>(edit.starts.kept - 1),
                             [&](const PlacedSection& s) { return s.end <= edit.prefix; }) -
        m_sections.begin());
  }
  while (front < std::min(m, edit.n) && edit.start_at(front) == m_sections[front].begin &&
         edit.end_of(front) == m_sections[front].end && m_sections[front].end <= edit.prefix) {
    ++front;
  }
  return front;
}

std::size_t ClaimSections::moved_back(const Edit& edit, std::size_t front) const {
  // The sections wholly after it moved with their bytes (headings checked by place_between).
  const std::size_t m = m_sections.size();
  std::size_t back = 0;
  while (back < std::min(m, edit.n) - front) {
    const auto k = edit.n - 1 - back;
    const auto& was = m_sections[m - 1 - back];
    const auto begin = edit.start_at(k);
    if (begin < edit.moved_from || was.begin != edit.old_begin_of(begin) ||
        was.end - was.begin != edit.end_of(k) - begin) {
      break;
    }
    ++back;
  }
  return back;
}

ClaimSections::Placing ClaimSections::start_placing(std::size_t front, std::size_t back) const {
  static const auto k_none = std::make_shared<const HeadingStack>();
  Placing placing;
  placing.front = front;
  placing.back = back;
  placing.carried = front > 0 ? &m_sections[front - 1].content->out : &k_none;
  placing.counted = front > 0 ? m_sections[front - 1].begin : 0;
  placing.line = front > 0 ? m_sections[front - 1].first_line : 1;
  placing.claims_first =
      front > 0 ? m_sections[front - 1].first_claim + m_sections[front - 1].content->claims.size()
                : 0;
  placing.claims_at = placing.claims_first;
  return placing;
}

void ClaimSections::place_between(const Edit& edit, Placing& placing, KindMemo* memo, Kinds kinds) {
  // The sections between: kept when an old one has their bytes and headings, else split.
  const std::size_t m = m_sections.size();
  for (std::size_t k = placing.front;; ++k) {
    if (k < edit.n - placing.back) {
      place(edit, k, placing, memo, kinds);
      continue;
    }
    // The first moved section keeps its content only under the same headings;
    // when it does, so does every one after it, each under the last one's.
    if (placing.back == 0) {
      break;
    }
    const auto& in = m_sections[m - placing.back].content->in;
    if (in == *placing.carried || *in == **placing.carried) {
      break;
    }
    --placing.back;
    --k; // place it, with the sections between
  }
}

void ClaimSections::place(const Edit& edit, std::size_t k, Placing& placing, KindMemo* memo,
                          Kinds kinds) {
  const std::size_t m = m_sections.size();
  const auto begin = edit.start_at(k);
  const auto end = edit.end_of(k);
  const auto& in = *placing.carried;
  // The old section these bytes were, if the edit left them alone.
  PlacedSection* was = nullptr;
  bool moved = false;
  if (m_split && end <= edit.prefix) {
    was = find(placing.front, m - placing.back, begin);
  } else if (m_split && begin >= edit.moved_from) {
    was = find(placing.front, m - placing.back, edit.old_begin_of(begin));
    moved = true;
  }
  if (was != nullptr && (was->content == nullptr || was->end - was->begin != end - begin ||
                         (was->content->in != in && *was->content->in != *in))) {
    was = nullptr;
  }
  if (was != nullptr) {
    placing.line = was->first_line + (moved ? edit.line_shift : 0);
  } else {
    placing.line +=
        static_cast<int>(std::count(edit.body.begin() + static_cast<long>(placing.counted),
                                    edit.body.begin() + static_cast<long>(begin), '\n'));
  }
  placing.counted = begin;
  std::shared_ptr<const SectionClaims> content;
  if (was != nullptr) {
    content = std::move(was->content); // each old section is taken once
  } else {
    // The splitter pops what the section's first heading ends, as it does in the whole body.
    auto made = std::make_shared<SectionClaims>();
    HeadingStack out;
    made->claims = split_section(edit.body.substr(begin, end - begin), *in, &out, memo, kinds);
    made->in = in;
    made->out = out == *in ? in : std::make_shared<const HeadingStack>(std::move(out));
    content = std::move(made);
  }
  placing.carried = &content->out;
  const auto claims = content->claims.size();
  placing.middle.push_back({begin, end, placing.line, placing.claims_at, std::move(content)});
  placing.claims_at += claims;
}

SectionChange ClaimSections::replace_between(const Edit& edit, Placing& placing) {
  // The claims the sections between replace, then the new sections in their place.
  const std::size_t m = m_sections.size();
  const auto front = placing.front;
  const auto back = placing.back;
  const auto old_tail_claim = back > 0 ? m_sections[m - back].first_claim : m_claims;
  const SectionChange change{front,
                             m - back - front,
                             placing.middle.size(),
                             placing.claims_first,
                             old_tail_claim - placing.claims_first,
                             placing.claims_at - placing.claims_first};
  const auto claim_shift = static_cast<std::ptrdiff_t>(change.claims_added) -
                           static_cast<std::ptrdiff_t>(change.claims_removed);
  for (std::size_t i = m - back; i < m; ++i) {
    auto& section = m_sections[i];
    section.begin =
        static_cast<std::size_t>(static_cast<std::ptrdiff_t>(section.begin) - edit.shift);
    m_begins[i] = section.begin;
    section.end = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(section.end) - edit.shift);
    section.first_line += edit.line_shift;
    section.first_claim =
        static_cast<std::size_t>(static_cast<std::ptrdiff_t>(section.first_claim) + claim_shift);
  }
  std::vector<std::size_t> middle_begins;
  middle_begins.reserve(placing.middle.size());
  for (const auto& section : placing.middle) {
    middle_begins.push_back(section.begin);
  }
  splice(m_sections, front, change.removed, placing.middle);
  splice(m_begins, front, change.removed, middle_begins);
  m_claims = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(m_claims) + claim_shift);
  // The body the same way: only the edited bytes are copied.
  m_body.replace(edit.prefix, edit.old.size() - edit.prefix - edit.suffix,
                 edit.body.substr(edit.prefix, edit.body.size() - edit.prefix - edit.suffix));
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
