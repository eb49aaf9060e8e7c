// Unfiltered staging: a file staged as its own bytes, with the stat data
// `git status` compares, without loading git's filters path by path. Private
// to git/.
#pragma once

#include <filesystem>
#include <git2.h>
#include <string>

namespace engram::git::detail {

// True when git could store some file of this store as other bytes than the
// file's own: `core.autocrlf`, or an attributes file anywhere git reads one
// (the index, the top of the working tree, `info/attributes`, the user's or
// the system's). Then files are staged through libgit2's filters.
[[nodiscard]] bool may_filter(git_repository* repository, git_index* index);

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

} // namespace engram::git::detail
