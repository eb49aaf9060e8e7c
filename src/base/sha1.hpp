// SHA-1 by OpenSSL, for what engram writes into .git itself: a pack's and an
// index's checksums, the ids of the objects it writes and of the files it
// compares with them. libgit2 does not export its own. Private to git/.
#pragma once

#include <cstddef>
#include <git2.h>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace engram::git::detail {

// The SHA-1 of `parts`, one after the other, into `digest` (GIT_OID_RAWSZ
// bytes). False when OpenSSL fails.
[[nodiscard]] bool sha1(std::initializer_list<std::string_view> parts, unsigned char* digest);

// A SHA-1 fed piece by piece, and copied to go on from where it is: the
// state part way through an object, to hash it again from there once the
// bytes after have changed (see TreeBytes).
class Sha1 {
public:
  Sha1();
  Sha1(const Sha1& other);
  Sha1& operator=(const Sha1& other);
  Sha1(Sha1&&) noexcept = default;
  Sha1& operator=(Sha1&&) noexcept = default;
  ~Sha1();

  // Feeds `bytes`; false when OpenSSL fails (the state is then unusable).
  [[nodiscard]] bool update(std::string_view bytes);
  // The digest of all fed so far into `out`, this state left as it was.
  [[nodiscard]] bool digest(git_oid& out) const;
  // The digest of all fed so far into `digest` (GIT_OID_RAWSZ bytes); the
  // state is used up.
  [[nodiscard]] bool finish(unsigned char* digest);

private:
  struct Free {
    void operator()(evp_md_ctx_st* context) const;
  };
  std::unique_ptr<evp_md_ctx_st, Free> m_context;
};

// The header git stores an object of `type` and `size` bytes under, and
// hashes with them: "<type> <size>\0".
[[nodiscard]] std::string object_header(git_object_t type, std::size_t size);

// The id of an object of `type` holding `bytes`: the SHA-1 of its header and bytes.
[[nodiscard]] bool object_id(git_object_t type, std::string_view bytes, git_oid& out);

} // namespace engram::git::detail
