// Workspace's claims as rules see them: splitting a file into claims,
// classifying and comparing them, and the per-layer claim indexes that find
// related claims; the normal forms of text, tags and slugs. Part of the
// Workspace (engine/workspace.hpp).
#include "base/parallel.hpp"
#include "claims/classify.hpp"
#include "claims/compare.hpp"
#include "claims/normalise.hpp"
#include "claims/slug.hpp"
#include "claims/split.hpp"
#include "engine/workspace.hpp"
#include "store/tags.hpp"

#include <algorithm>
#include <mutex>

namespace engram::engine {

std::vector<Claim> Workspace::claims(std::string_view body) const {
  return claims::split_claims(body, &m_claims.kinds());
}

std::vector<Claim> Workspace::claims_of(std::string_view path, ClaimDetail detail) const {
  const auto it = m_files.find(path);
  if (it == m_files.end() || !it->second.current || !it->second.layer) {
    return definition::claims_of(*this, path, detail);
  }
  // The layer's index splits every file of it once, and each edit's sections again.
  return layer_index(*it->second.layer).claims_of(it->first, kinds_for(detail));
}

ClaimKind Workspace::classify(std::string_view text) const {
  return claims::classify(text);
}

double Workspace::near_threshold() const {
  if (!m_near_duplicate) {
    m_near_duplicate = m_settings.get_real("rules.episodic-decay.near_duplicate");
  }
  return *m_near_duplicate;
}

Relation Workspace::compare(std::string_view incoming, std::string_view existing) const {
  const double threshold = near_threshold();
  const auto in = m_claims.id(incoming);
  const auto ex = m_claims.id(existing); // numbering may grow the table: look entries up after
  return claims::relation(m_claims.shape(in).prepared, m_claims.shape(ex).prepared, threshold);
}

const ClaimIndex& Workspace::layer_index(Layer layer) const {
  auto& [index, read] = m_indexes[layer];
  if (read == 0) {
    std::vector<std::pair<const std::string*, std::string_view>> files;
    for (const auto& [path, file] : m_files) {
      if (file.current && file.layer == layer && !m_held.contains(path)) {
        files.emplace_back(&path, file.current->body());
      }
    }
    index.update_all(files, m_claims);
  } else {
    for (std::size_t i = read - 1; i < m_changed.size(); ++i) {
      const auto& path = m_changed[i];
      const auto it = m_files.find(path);
      if (it != m_files.end() && it->second.current && it->second.layer == layer) {
        index.update(path, it->second.current->body(), m_claims);
      } else {
        index.remove(path);
      }
    }
  }
  read = m_changed.size() + 1; // + 1: 0 means "not built yet"
  return index;
}

std::vector<ClaimMatch> Workspace::related_claims(std::string_view incoming, Layer layer,
                                                  ClaimDetail detail) const {
  const double threshold = near_threshold();
  const auto& index = layer_index(layer);
  return index.related(m_claims.id(incoming), m_claims, threshold, ClaimIndex::Wanted::related,
                       kinds_for(detail));
}

std::vector<std::vector<ClaimMatch>>
Workspace::related_claims_each(const std::vector<std::string>& incoming, Layer layer,
                               ClaimDetail detail) const {
  const double threshold = near_threshold();
  const auto& index = layer_index(layer);
  // Numbered first (a new text's preparation on every core): the queries
  // then only read the table and the index.
  m_claims.add_all(std::vector<std::string_view>(incoming.begin(), incoming.end()));
  std::vector<std::uint32_t> ids;
  ids.reserve(incoming.size());
  for (const auto& text : incoming) {
    ids.push_back(m_claims.id(text));
  }
  std::vector<std::vector<ClaimMatch>> out(incoming.size());
  // Blocks of queries on every core, each thread marking in a scratch of its own.
  constexpr std::size_t k_block = 64;
  constexpr std::size_t k_blocks_per_thread = 4;
  std::mutex pool_lock;
  std::vector<std::unique_ptr<ClaimIndex::Scratch>> pool;
  for_each_index((ids.size() + k_block - 1) / k_block, k_blocks_per_thread, [&](std::size_t b) {
    std::unique_ptr<ClaimIndex::Scratch> scratch;
    {
      const std::lock_guard lock(pool_lock);
      if (!pool.empty()) {
        scratch = std::move(pool.back());
        pool.pop_back();
      }
    }
    if (!scratch) {
      scratch = std::make_unique<ClaimIndex::Scratch>();
    }
    for (auto i = b * k_block; i < std::min(ids.size(), (b + 1) * k_block); ++i) {
      out[i] = index.related(ids[i], m_claims, threshold, ClaimIndex::Wanted::related, nullptr,
                             *scratch);
    }
    const std::lock_guard lock(pool_lock);
    pool.push_back(std::move(scratch));
  });
  // Kinds after, here: the memo is the run's, one thread's.
  if (auto* memo = kinds_for(detail)) {
    for (auto& matches : out) {
      for (auto& match : matches) {
        if (match.kind != ClaimKind::solution) {
          match.kind = memo->classify(match.text);
        }
      }
    }
  }
  return out;
}

std::vector<ClaimMatch> Workspace::duplicate_claims(std::string_view incoming, Layer layer,
                                                    ClaimDetail detail) const {
  const double threshold = near_threshold();
  const auto& index = layer_index(layer);
  return index.related(m_claims.id(incoming), m_claims, threshold, ClaimIndex::Wanted::duplicates,
                       kinds_for(detail));
}

std::string Workspace::normalise(std::string_view text) const {
  return claims::normalise(text);
}

std::string Workspace::canonical_tag(std::string_view tag) const {
  return store::canonical_tag(tag);
}

std::string Workspace::slug(std::string_view text) const {
  return claims::slug(text);
}

} // namespace engram::engine
