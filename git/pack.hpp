// Pack: many new blobs written to the object database as one pack file, the
// way git keeps a fetch or push of many objects (`transfer.unpackLimit`),
// instead of one loose file each. Private to git/.
#pragma once

#include <cstddef>
#include <git2.h>
#include <string_view>
#include <vector>

namespace engram::git::detail {

// The fewest blobs worth a pack: fewer are written loose. Git's own
// `transfer.unpackLimit`, for the same trade: a pack is one file to create
// instead of hundreds, but every pack is one more index that each lookup of
// an object may read.
inline constexpr std::size_t k_pack_at = 100;

// The most packs the object database may hold for a new one to be added:
// past it, blobs are written loose until `git gc` (which git runs itself,
// `gc --auto`, past the same number: `gc.autoPackLimit`) repacks them.
inline constexpr std::size_t k_most_packs = 50;

// Whether `count` new blobs go into one pack: enough of them, and few
// enough packs in the object database already.
[[nodiscard]] bool pack_worth_it(git_repository* repository, std::size_t count);

// Writes `blobs` as one pack (every object whole, no deltas) through
// libgit2's indexer, which checks it and writes its index beside it; `ids`
// gets each blob's id, in order. Not flushed: see Repository::flush. Returns
// a libgit2 error code (0 when it worked); on failure the object database is
// as it was, less a temporary the indexer may leave in its pack folder.
[[nodiscard]] int write_pack(git_repository* repository, const std::vector<std::string_view>& blobs,
                             std::vector<git_oid>& ids);

} // namespace engram::git::detail
