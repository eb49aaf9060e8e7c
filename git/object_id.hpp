// Object id: the header git stores an object under and hashes with it, and
// the id that makes (SHA-1 by OpenSSL, base/sha1.hpp). Private to git/.
#pragma once

#include <cstddef>
#include <git2.h>
#include <string>
#include <string_view>

namespace engram::git::detail {

// The header git stores an object of `type` and `size` bytes under, and
// hashes with them: "<type> <size>\0".
[[nodiscard]] std::string object_header(git_object_t type, std::size_t size);

// The id of an object of `type` holding `bytes`: the SHA-1 of its header and bytes.
[[nodiscard]] bool object_id(git_object_t type, std::string_view bytes, git_oid& out);

} // namespace engram::git::detail
