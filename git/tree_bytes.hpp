// TreeBytes: a large tree's bytes as last written, where each entry's id lies
// in them, and SHA-1 states along the object. A one-file commit to a
// 20,000-entry folder changes one id of its 1.2 MB tree: the next tree is
// those bytes with 20 of them overwritten, hashed again from the state
// before the first one that changed, rather than made and hashed whole.
// Private to git/.
#pragma once

#include "base/sha1.hpp"
#include "git/object_id.hpp"

#include <cstddef>
#include <cstdint>
#include <git2.h>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace engram::git::detail {

class TreeBytes {
public:
  // A SHA-1 state is kept every this many bytes of the tree's bytes.
  static constexpr std::size_t k_stride = 64 * 1024;

  // Appends an entry, in git's order, while the tree is made.
  void add(std::uint32_t mode, std::string_view name, const git_oid& id);

  // Overwrites the id of entry `entry` (counted from 0 as added); the size
  // stays, so the object's header does too.
  void set_id(std::size_t entry, const git_oid& id);

  // The object's id: hashed from the state before the first byte changed
  // since the last call (all of it the first time). False when OpenSSL fails.
  [[nodiscard]] bool hash(git_oid& out);

  // The tree's bytes (without git's object header), shared with whoever
  // writes them later (LaterDeflate). Changed by set_id: see unshare.
  const std::shared_ptr<std::string>& bytes() const { return m_bytes; }

  // Gives this its own copy of the bytes, for set_id not to change those a
  // helper thread may still be reading.
  void unshare();

  std::size_t entries() const { return m_id_at.size(); }

private:
  std::shared_ptr<std::string> m_bytes = std::make_shared<std::string>();
  std::vector<std::uint32_t> m_id_at; // where each entry's id starts in the bytes
  // m_states[k]: the SHA-1 state after the header and the first k * k_stride bytes.
  std::vector<Sha1> m_states;
  std::size_t m_stale_from = 0; // the first byte changed since the last hash
};

} // namespace engram::git::detail
