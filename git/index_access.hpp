// Index access: the repository's index read as it is on disk, one path of
// it set to HEAD's entry, and the marker of an index behind HEAD. Shared by staging (repository.cpp) and the
// index's upkeep (index_upkeep.cpp). Private to git/.
#pragma once

#include "base/expected.hpp"
#include "git/libgit2.hpp"
#include "git/repository.hpp"

#include <filesystem>
#include <git2.h>
#include <string>

namespace engram::git::detail {

// The repository's index as it is on disk, owned by `index`: read again
// only when the file is not what libgit2 last read. The user's git may have
// written it since, and the repository stays open across a daemon's runs.
Expected<git_index*, Failure> fresh_index(git_repository* repository, Index& index);

// Stages `path` as HEAD has it, or drops it from the index when HEAD lacks
// it. The entry carries no stat data, so git compares the file's content and
// `git status` still shows it changed. Returns libgit2's code.
int stage_as_head(git_repository* repository, git_index* index, const std::string& path);

// The file whose presence says a commit moved HEAD and the index's file has
// not caught up yet (see Repository::commit_index and catch_up_index).
std::filesystem::path behind_marker(const std::filesystem::path& gitdir);

} // namespace engram::git::detail
