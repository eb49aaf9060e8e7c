// Repository: a store's own git repository through libgit2. Every change
// engram makes ends as one commit here, so `git log` explains the store.
#pragma once

#include "base/expected.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct git_repository;
struct git_index;

namespace engram::git {

// The author and committer of engram's commits.
struct Signature {
  std::string name;
  std::string email;
};

// The signature engram uses when the configuration names nobody: `engram <engram@HOSTNAME>`.
Signature default_signature();

// An open git repository with a working tree. Move-only; closes on destruction.
class Repository {
public:
  // Opens the repository whose working tree is `path` (`path/.git`); never
  // searches parent folders, so a store inside another repository stays its own.
  [[nodiscard]] static Expected<Repository, std::string> open(const std::filesystem::path& path);

  // Creates an empty repository at `path` (or opens the one already there).
  [[nodiscard]] static Expected<Repository, std::string> init(const std::filesystem::path& path);

  // True when `path/.git` exists (as a folder or a gitdir file).
  static bool exists_at(const std::filesystem::path& path);

  Repository(Repository&&) noexcept = default;
  Repository& operator=(Repository&&) noexcept = default;
  ~Repository();

  // Stages every change of the working tree (new files, edits, deletions;
  // ignored files stay out), writes the index so `git status` is clean after,
  // and commits on HEAD (the first commit too). Returns the commit id as hex.
  [[nodiscard]] Expected<std::string, std::string> commit_all(std::string_view message,
                                                              const Signature& signature);

  // Stages exactly `paths` (store-relative, '/'-separated): a path that exists
  // in the working tree is added, one that does not is removed from the index.
  // Nothing else is staged, so a file someone else changed meanwhile stays out
  // of the commit. Writes the index and commits on HEAD; returns the commit id.
  [[nodiscard]] Expected<std::string, std::string>
  commit_paths(const std::vector<std::string>& paths, std::string_view message,
               const Signature& signature);

  // The id of HEAD's commit as hex; nullopt when HEAD is unborn (no commit yet).
  // Throws engram::Error when HEAD cannot be read.
  std::optional<std::string> head() const;

  // True when the working tree and the index match HEAD, untracked files
  // included and ignored ones not. Throws engram::Error when status fails.
  bool is_clean() const;

  // The signature to commit with: the repository's own `user.name` and
  // `user.email` (its local config only, not the user's global one) when set,
  // else `configured`'s non-empty fields, else default_signature()'s.
  Signature signature_for(const Signature& configured) const;

  // The working tree's root.
  const std::filesystem::path& workdir() const { return m_workdir; }

private:
  // Releases the libgit2 handle.
  struct Closer {
    void operator()(git_repository* repository) const;
  };

  Repository(git_repository* repository, std::filesystem::path workdir);

  // Writes `index` to disk and as a tree, and commits that tree on HEAD.
  [[nodiscard]] Expected<std::string, std::string>
  commit_index(git_index* index, std::string_view message, const Signature& signature);

  std::unique_ptr<git_repository, Closer> m_repository;
  std::filesystem::path m_workdir;
};

} // namespace engram::git
