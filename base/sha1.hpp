// SHA-1 by OpenSSL: the checksums of what engram writes into .git itself (a
// pack's, an index's), the ids of the objects it writes, and the content hash
// the store compares files by (store::content_hash, a git blob id).
// libgit2 exports no SHA-1 of its own but git_odb_hash, whose collision
// detection (SHA1DC) costs two to three times OpenSSL's on this machine's
// CPUs; the ids are the same for every input but a crafted collision.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace engram {

// The bytes of a SHA-1 digest.
inline constexpr std::size_t k_sha1_bytes = 20;

// The SHA-1 of `parts`, one after the other, into `digest` (k_sha1_bytes
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
  // The digest of all fed so far into `digest` (k_sha1_bytes bytes), this
  // state left as it was.
  [[nodiscard]] bool digest(unsigned char* digest) const;
  // The digest of all fed so far into `digest` (k_sha1_bytes bytes); the
  // state is used up.
  [[nodiscard]] bool finish(unsigned char* digest);

private:
  struct Free {
    void operator()(evp_md_ctx_st* context) const;
  };
  std::unique_ptr<evp_md_ctx_st, Free> m_context;
};

} // namespace engram
