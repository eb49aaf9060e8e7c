// TreeBytes: git's tree format ("<octal mode> <name>\0<20-byte id>" per
// entry), kept with where each id lies and SHA-1 states every k_stride bytes.
#include "git/tree_bytes.hpp"

#include <algorithm>
#include <cstring>

namespace engram::git::detail {

void TreeBytes::add(std::uint32_t mode, std::string_view name, const git_oid& id) {
  char octal[12];
  std::size_t at = sizeof octal;
  for (std::uint32_t left = mode; left != 0 || at == sizeof octal; left >>= 3) {
    octal[--at] = static_cast<char>('0' + (left & 7));
  }
  std::string& bytes = *m_bytes;
  bytes.append(octal + at, sizeof octal - at);
  bytes += ' ';
  bytes += name;
  bytes += '\0';
  m_id_at.push_back(static_cast<std::uint32_t>(bytes.size()));
  bytes.append(reinterpret_cast<const char*>(id.id), GIT_OID_RAWSZ);
  // The size, and so the header every state begins with, changed.
  m_states.clear();
  m_stale_from = 0;
}

void TreeBytes::set_id(std::size_t entry, const git_oid& id) {
  const std::size_t at = m_id_at.at(entry);
  std::memcpy(m_bytes->data() + at, id.id, GIT_OID_RAWSZ);
  m_stale_from = std::min(m_stale_from, at);
}

void TreeBytes::unshare() {
  m_bytes = std::make_shared<std::string>(*m_bytes);
}

bool TreeBytes::hash(git_oid& out) {
  const std::string_view bytes = *m_bytes;
  if (m_states.empty()) {
    Sha1 start;
    if (!start.update(object_header(GIT_OBJECT_TREE, bytes.size()))) {
      return false;
    }
    m_states.push_back(std::move(start));
  }
  // Go on from the last state at or before the first changed byte; the
  // states after it are made again on the way.
  const std::size_t from = std::min(m_stale_from / k_stride, m_states.size() - 1);
  m_states.resize(from + 1);
  Sha1 running = m_states.back();
  for (std::size_t at = from * k_stride; at < bytes.size();) {
    const std::size_t take = std::min(k_stride, bytes.size() - at);
    if (!running.update(bytes.substr(at, take))) {
      m_states.clear();
      return false;
    }
    at += take;
    if (at < bytes.size()) {
      m_states.push_back(running);
    }
  }
  if (!running.digest(out.id)) {
    m_states.clear();
    return false;
  }
  m_stale_from = bytes.size();
  return true;
}

} // namespace engram::git::detail
