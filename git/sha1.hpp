// SHA-1 by OpenSSL, for what engram writes into .git itself: a pack's and an
// index's checksums, the ids of the objects it writes and of the files it
// compares with them. libgit2 does not export its own. Private to git/.
#pragma once

#include <cstddef>
#include <git2.h>
#include <initializer_list>
#include <string>
#include <string_view>

namespace engram::git::detail {

// The SHA-1 of `parts`, one after the other, into `digest` (GIT_OID_RAWSZ
// bytes). False when OpenSSL fails.
[[nodiscard]] bool sha1(std::initializer_list<std::string_view> parts, unsigned char* digest);

// The header git stores an object of `type` and `size` bytes under, and
// hashes with them: "<type> <size>\0".
[[nodiscard]] std::string object_header(git_object_t type, std::size_t size);

// The id of an object of `type` holding `bytes`: the SHA-1 of its header and bytes.
[[nodiscard]] bool object_id(git_object_t type, std::string_view bytes, git_oid& out);

} // namespace engram::git::detail
