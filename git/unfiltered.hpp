// Unfiltered staging and refreshing: a file staged as its own bytes, with the
// stat data `git status` compares, and the stat data of unchanged files
// brought up to date, without loading git's filters path by path. Private to
// git/.
#pragma once

#include "git/repository.hpp"

#include <cstddef>
#include <filesystem>
#include <git2.h>
#include <string>
#include <string_view>
#include <vector>

namespace engram::git::detail {

// True when git could store some file of this store as other bytes than the
// file's own: `core.autocrlf`, or an attributes file anywhere git reads one
// (the index, the top of the working tree, `info/attributes`, the user's or
// the system's). Then files are staged through libgit2's filters.
[[nodiscard]] bool may_filter(git_repository* repository, git_index* index);

// may_filter's two halves: the configuration and the attributes files
// outside the index; and whether an indexed path is an attributes file.
[[nodiscard]] bool may_filter_outside_index(git_repository* repository);
[[nodiscard]] bool is_attributes_file(std::string_view path);

// Whether the executable bit of files is staged (core.filemode, true when unset).
[[nodiscard]] bool trusts_file_mode(git_repository* repository);

// Stages the regular file at `path` (store-relative) as its bytes: the blob
// written if the object database lacks it, the entry given the stat data of
// the descriptor the bytes were read from; its mode from the file when
// `trust_mode` (trusts_file_mode), else the index's. Returns a libgit2 code;
// 1 when the path is not a regular file (a link, gone) or cannot be read:
// stage it the usual way.
[[nodiscard]] int stage_unfiltered(git_repository* repository, git_index* index,
                                   const std::filesystem::path& workdir, const std::string& path,
                                   bool trust_mode);

// What `git update-index --refresh` does, unfiltered, in memory: each file
// entry whose stat data the working file no longer matches (a copied,
// restored or touched store) is hashed as its bytes, and when they are the
// entry's blob (and, with `trust_mode`, its mode), the entry takes the
// file's stat data. A status then finds it current by its stat alone,
// instead of hashing it through the filters. Only for a store may_filter
// says no filter can apply to. Returns how many entries were refreshed; the
// index is written with them at the next commit, as git does.
std::size_t refresh_unfiltered(git_index* index, const std::filesystem::path& workdir,
                               bool trust_mode);

} // namespace engram::git::detail
