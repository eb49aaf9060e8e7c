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
