// ClaimTable: every distinct claim text of a run, prepared for comparison
// once and numbered, with its tokens numbered for the claim index (see
// claim_index.hpp).
#include "base/parallel.hpp"
#include "engine/claim_index.hpp"

#include <algorithm>
#include <unordered_set>

namespace engram::engine {

std::uint32_t ClaimTable::number(Numbers& numbers, const std::string& text) {
  const auto it = numbers.find(text);
  if (it != numbers.end()) {
    return it->second;
  }
  const auto n = static_cast<std::uint32_t>(numbers.size());
  numbers.emplace(text, n);
  return n;
}

std::uint32_t ClaimTable::id(std::string_view text) {
  if (const auto it = m_ids.find(text); it != m_ids.end()) {
    return it->second;
  }
  if (const auto alike = alike_numbered(text)) {
    return add_alike(text, *alike);
  }
  return add(text, claims::prepare(text));
}

std::optional<std::uint32_t> ClaimTable::alike_numbered(std::string_view text) const {
  for (auto alike = claims::prepared_alike(text); alike.size() < text.size();
       text = alike, alike = claims::prepared_alike(text)) {
    if (const auto it = m_ids.find(alike); it != m_ids.end()) {
      return it->second;
    }
  }
  return std::nullopt;
}

void ClaimTable::add_all(const std::vector<std::string_view>& texts) {
  std::vector<std::string_view> fresh;
  std::unordered_set<std::string_view> listed;
  for (const auto text : texts) {
    if (m_ids.contains(text) || !listed.insert(text).second) {
      continue;
    }
    if (const auto alike = alike_numbered(text)) {
      add_alike(text, *alike); // an absorbed claim, now an item: prepared already
    } else {
      fresh.push_back(text);
    }
  }
  std::vector<claims::PreparedClaim> prepared(fresh.size());
  constexpr std::size_t k_texts_per_thread = 256;
  for_each_index(fresh.size(), k_texts_per_thread,
                 [&](std::size_t i) { prepared[i] = claims::prepare(fresh[i]); });
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    add(fresh[i], std::move(prepared[i]));
  }
}

std::uint32_t ClaimTable::add_alike(std::string_view text, std::uint32_t alike) {
  return push(text, m_shape_of[alike]);
}

std::uint32_t ClaimTable::add(std::string_view text, claims::PreparedClaim prepared) {
  Shape shape;
  shape.prepared = std::move(prepared);
  shape.normal = number(m_normals, shape.prepared.normal);
  for (const auto& word : shape.prepared.tokens.words) {
    shape.words.push_back(number(m_tokens, word));
  }
  std::sort(shape.words.begin(), shape.words.end());
  shape.all = shape.words;
  for (const auto& value : shape.prepared.tokens.values) {
    shape.all.push_back(number(m_tokens, value));
  }
  std::sort(shape.all.begin(), shape.all.end());
  shape.all.erase(std::unique(shape.all.begin(), shape.all.end()), shape.all.end());
  shape.posted = shape.all;
  for (const auto& [name, stems] : shape.prepared.tokens.quoted_words) {
    for (const auto& stem : stems) {
      shape.posted.push_back(number(m_tokens, stem));
    }
  }
  for (const auto& [whole, parts] : shape.prepared.tokens.compounds) {
    shape.posted.push_back(number(m_tokens, whole));
  }
  for (const auto& target : shape.prepared.tokens.link_targets) {
    shape.posted.push_back(number(m_tokens, target));
  }
  std::sort(shape.posted.begin(), shape.posted.end());
  shape.posted.erase(std::unique(shape.posted.begin(), shape.posted.end()), shape.posted.end());
  for (const auto& token : shape.prepared.tokens.subject) {
    shape.subject.push_back(number(m_tokens, token));
  }
  std::sort(shape.subject.begin(), shape.subject.end());
  for (const auto& token : shape.prepared.tokens.predicate) {
    if (std::binary_search(shape.prepared.tokens.words.begin(), shape.prepared.tokens.words.end(),
                           token)) {
      shape.predicate_words.push_back(number(m_tokens, token));
    }
  }
  std::sort(shape.predicate_words.begin(), shape.predicate_words.end());
  const auto& tokens = shape.prepared.tokens;
  for (const auto& token : tokens.passed_over) {
    if (!std::binary_search(tokens.chosen.begin(), tokens.chosen.end(), token)) {
      shape.passed_over.push_back(number(m_tokens, token));
    }
  }
  m_shapes.push_back(std::move(shape));
  return push(text, static_cast<std::uint32_t>(m_shapes.size() - 1));
}

std::uint32_t ClaimTable::push(std::string_view text, std::uint32_t shape) {
  const auto n = static_cast<std::uint32_t>(m_texts.size());
  m_normal.push_back(m_shapes[shape].normal);
  m_shape_of.push_back(shape);
  m_texts.push_back(&m_ids.emplace(std::string(text), n).first->first);
  return n;
}

} // namespace engram::engine
