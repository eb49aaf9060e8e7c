// SHA-1 by OpenSSL (see sha1.hpp).
#include "git/sha1.hpp"

#include <memory>
#include <openssl/evp.h>

namespace engram::git::detail {

bool sha1(std::initializer_list<std::string_view> parts, unsigned char* digest) {
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                         EVP_MD_CTX_free);
  if (context == nullptr || EVP_DigestInit_ex(context.get(), EVP_sha1(), nullptr) != 1) {
    return false;
  }
  for (const auto part : parts) {
    if (EVP_DigestUpdate(context.get(), part.data(), part.size()) != 1) {
      return false;
    }
  }
  unsigned int length = 0;
  return EVP_DigestFinal_ex(context.get(), digest, &length) == 1 && length == GIT_OID_RAWSZ;
}

void Sha1::Free::operator()(evp_md_ctx_st* context) const {
  EVP_MD_CTX_free(context);
}

Sha1::Sha1() : m_context(EVP_MD_CTX_new()) {
  if (m_context != nullptr && EVP_DigestInit_ex(m_context.get(), EVP_sha1(), nullptr) != 1) {
    m_context.reset();
  }
}

Sha1::Sha1(const Sha1& other) : m_context(EVP_MD_CTX_new()) {
  if (m_context != nullptr &&
      (other.m_context == nullptr ||
       EVP_MD_CTX_copy_ex(m_context.get(), other.m_context.get()) != 1)) {
    m_context.reset();
  }
}

Sha1& Sha1::operator=(const Sha1& other) {
  if (this != &other) {
    Sha1 copy(other);
    m_context = std::move(copy.m_context);
  }
  return *this;
}

Sha1::~Sha1() = default;

bool Sha1::update(std::string_view bytes) {
  return m_context != nullptr && EVP_DigestUpdate(m_context.get(), bytes.data(), bytes.size()) == 1;
}

bool Sha1::digest(git_oid& out) const {
  // Finishing consumes the state: a copy is finished, this one goes on.
  Sha1 last(*this);
  unsigned int length = 0;
  return last.m_context != nullptr &&
         EVP_DigestFinal_ex(last.m_context.get(), out.id, &length) == 1 &&
         length == GIT_OID_RAWSZ;
}

std::string object_header(git_object_t type, std::size_t size) {
  std::string header = git_object_type2string(type);
  header += ' ';
  header += std::to_string(size);
  header += '\0';
  return header;
}

bool object_id(git_object_t type, std::string_view bytes, git_oid& out) {
  return sha1({object_header(type, bytes.size()), bytes}, out.id);
}

} // namespace engram::git::detail
