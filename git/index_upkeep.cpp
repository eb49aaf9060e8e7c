// Index upkeep: Repository bringing git's index up to HEAD after a run
// stopped between moving HEAD and writing the index (see behind_marker).
#include "git/libgit2.hpp"
#include "git/locks.hpp"
#include "git/repository.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <string>

namespace engram::git {

using namespace detail;

void Repository::drop_dead_index_lock() {
  std::error_code error;
  const std::filesystem::path lock = gitdir() / "index.lock";
  if (std::filesystem::exists(behind_marker(gitdir()), error) &&
      std::filesystem::exists(lock, error) && !held_open(lock) &&
      std::filesystem::remove(lock, error)) {
    spdlog::warn("{}: removed index.lock, left by an engram stopped while it wrote the index "
                 "after its commit",
                 m_workdir.string());
  }
}

bool Repository::index_behind(const std::filesystem::path& root) {
  std::error_code error;
  return std::filesystem::exists(behind_marker(gitdir_of(root)), error);
}

namespace {

// Stages as HEAD has it every path where `index` and HEAD differ, in memory;
// how many, or the failure.
Expected<std::size_t, Failure> bring_up_to_head(git_repository* repository, git_index* index) {
  Tree tree;
  Diff diff;
  if (head_tree(repository, tree) &&
      git_diff_tree_to_index(&diff.pointer, repository, tree.pointer, index, nullptr) != 0) {
    return unexpected(failure(-1, "cannot compare the index with HEAD"));
  }
  const std::size_t count = diff.pointer != nullptr ? git_diff_num_deltas(diff.pointer) : 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string path = delta_path(git_diff_get_delta(diff.pointer, i));
    if (const int code = stage_as_head(repository, index, path); code != 0) {
      git_index_read(index, 1); // nothing half done stays in memory
      return unexpected(
          failure(code, fmt::format("cannot bring {} in the index up to HEAD", path)));
    }
  }
  return count;
}

} // namespace

Expected<git_index*, Failure> detail::staging_index(git_repository* repository,
                                                    const std::filesystem::path& gitdir,
                                                    Index& index) {
  auto fresh = fresh_index(repository, index);
  std::error_code error;
  if (fresh && std::filesystem::exists(behind_marker(gitdir), error)) {
    if (auto brought = bring_up_to_head(repository, *fresh); !brought) {
      return unexpected(std::move(brought.error()));
    }
  }
  return fresh;
}

void Repository::catch_up_index() {
  const std::filesystem::path marker = behind_marker(gitdir());
  std::error_code error;
  if (!std::filesystem::exists(marker, error)) {
    return;
  }
  git_repository* repository = m_repository.get();
  Index owner;
  auto index = fresh_index(repository, owner);
  if (!index) {
    spdlog::warn("{}: {}", m_workdir.string(), index.error().message);
    return;
  }
  const auto count = bring_up_to_head(repository, *index);
  if (!count) {
    spdlog::warn("{}: {}", m_workdir.string(), count.error().message);
    return;
  }
  if (git_index_write(*index) != 0) {
    spdlog::warn("{}: {}", m_workdir.string(), last_error("cannot write the index"));
    return;
  }
  std::filesystem::remove(marker, error);
  spdlog::info("{}: the index was behind HEAD (a run was stopped after its commit); {} file{} "
               "brought up to HEAD",
               m_workdir.string(), *count, *count == 1 ? "" : "s");
}

} // namespace engram::git
