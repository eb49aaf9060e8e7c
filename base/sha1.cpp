// SHA-1 by OpenSSL (see sha1.hpp).
#include "base/sha1.hpp"

#include <openssl/evp.h>

namespace engram {

bool sha1(std::initializer_list<std::string_view> parts, unsigned char* digest) {
  Sha1 running;
  for (const auto part : parts) {
    if (!running.update(part)) {
      return false;
    }
  }
  return running.finish(digest);
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
  if (m_context != nullptr && (other.m_context == nullptr ||
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

bool Sha1::finish(unsigned char* digest) {
  unsigned int length = 0;
  const bool done = m_context != nullptr &&
                    EVP_DigestFinal_ex(m_context.get(), digest, &length) == 1 &&
                    length == k_sha1_bytes;
  m_context.reset();
  return done;
}

bool Sha1::digest(unsigned char* digest) const {
  // Finishing uses the state up: a copy is finished, this one goes on.
  Sha1 last(*this);
  return last.finish(digest);
}

} // namespace engram
