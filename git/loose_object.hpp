// Loose object: one object written to the object database as its own file,
// the way git writes it (objects/xx/<38 hex>: "<type> <size>\0<bytes>",
// deflated), hashed with OpenSSL's SHA-1 and deflated by libdeflate. For the
// trees a commit writes: libgit2 hashes with its collision-detecting SHA-1
// and deflates with zlib, 40 ms of a one-file cycle for a 20,000-entry
// folder's 1.2 MB tree here. Private to git/.
#pragma once

#include <git2.h>
#include <string_view>

namespace engram::git::detail {

// Writes `bytes` as an object of `type` unless the object database has it,
// and gives its id in `out`. Not flushed: see Repository::flush. Returns 0,
// or a libgit2 error code with its error set, the object database as it was
// (less, at worst, a temporary file in the object's folder).
[[nodiscard]] int write_loose(git_repository* repository, git_object_t type,
                              std::string_view bytes, git_oid& out);

} // namespace engram::git::detail
