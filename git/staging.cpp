// Staging: the agent's files admitted into the index and committed — every
// file of the working tree (commit_all) or the paths a watcher named
// (stage_paths) — each checked once staged against the bytes it was judged by.
#include "base/error.hpp"
#include "base/fault.hpp"
#include "base/platform.hpp"
#include "base/regular_file.hpp"
#include "git/libgit2.hpp"
#include "git/repository.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

namespace engram::git {

using namespace detail;

namespace {
// True when `admit` lets in the file it was shown as `seen`; a file over
// its size limit is refused unread, one that could not be read is let
// through (staging decides what happens to it).
bool admits(const Admit& admit, const std::string& path, const WorkingBytes& seen) {
  if (seen.too_large) {
    if (admit.too_large) {
      admit.too_large(path, *seen.too_large);
    }
    return false;
  }
  return !seen.bytes || admit.check(path, *seen.bytes);
}

// True when what the index now holds for `path` may be committed: the bytes
// `admit` was shown before staging (`seen`, the same blob id), or bytes it
// accepts now — the file changed in between, or a filter rewrote it.
bool admit_staged(git_repository* repository, git_index* index, const std::string& path,
                  const std::optional<std::string>& seen, const Admit& admit) {
  const git_index_entry* entry = git_index_get_bypath(index, path.c_str(), 0);
  if (entry == nullptr) {
    return true;
  }
  if (seen) {
    git_oid id;
    if (git_odb_hash(&id, seen->data(), seen->size(), GIT_OBJECT_BLOB) == 0 &&
        git_oid_equal(&id, &entry->id) != 0) {
      return true;
    }
  }
  Blob blob;
  if (git_blob_lookup(&blob.pointer, repository, &entry->id) != 0) {
    return false; // what cannot be checked is not committed
  }
  const auto size = static_cast<std::uintmax_t>(git_blob_rawsize(blob.pointer));
  if (size > admit.max_bytes) { // it grew between the look and the staging
    return admits(admit, path, WorkingBytes{std::nullopt, size});
  }
  return admit.check(path,
                     std::string_view(static_cast<const char*>(git_blob_rawcontent(blob.pointer)),
                                      static_cast<std::size_t>(size)));
}

} // namespace

namespace {

// What commit_all's add_all callback needs: the files `admit` is asked about,
// and the bytes it saw of each one it let in, to check again once staged.
struct AdmitAll {
  const std::filesystem::path& workdir;
  const Admit& admit;
  std::vector<std::pair<std::string, std::optional<std::string>>> admitted;
  std::vector<std::string> refused;
};

// git_index_add_all's callback: 0 adds the path, 1 skips it.
int admit_for_add_all(const char* path, const char* /*matched*/, void* payload) {
  auto& all = *static_cast<AdmitAll*>(payload);
  auto seen = working_bytes(all.workdir / path, all.admit.max_bytes);
  if (!admits(all.admit, path, seen)) {
    all.refused.emplace_back(path);
    return 1;
  }
  all.admitted.emplace_back(path, std::move(seen.bytes));
  return 0;
}

// The files the index holds other than HEAD does that `all` did not ask
// about, and that its `admit` refuses as staged.
Expected<std::vector<std::string>, Failure> staged_beyond(git_repository* repository,
                                                          git_index* index, const AdmitAll& all) {
  Tree tree;
  head_tree(repository, tree); // none when unborn: everything in the index is new
  Diff diff;
  if (const int code =
          git_diff_tree_to_index(&diff.pointer, repository, tree.pointer, index, nullptr);
      code != 0) {
    return unexpected(failure(code, "cannot compare the index with HEAD"));
  }
  std::vector<std::string> refused;
  const std::size_t count = git_diff_num_deltas(diff.pointer);
  for (std::size_t i = 0; i < count; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.pointer, i);
    if (delta->status != GIT_DELTA_ADDED && delta->status != GIT_DELTA_MODIFIED) {
      continue;
    }
    const std::string path = delta->new_file.path;
    const bool asked = std::any_of(all.admitted.begin(), all.admitted.end(),
                                   [&](const auto& a) { return a.first == path; }) ||
                       std::find(all.refused.begin(), all.refused.end(), path) != all.refused.end();
    if (!asked && !admit_staged(repository, index, path, std::nullopt, all.admit)) {
      refused.push_back(path);
    }
  }
  return refused;
}

} // namespace

namespace {

// Stages every change of the working tree at `workdir` into `index`, in
// memory, each file `admit` refuses kept as HEAD has it; nullopt when it worked.
std::optional<Failure> stage_all(git_repository* repository, git_index* index,
                                 const std::filesystem::path& workdir, const Admit& admit) {
  // add_all picks up new and changed files (skipping ignored ones);
  // update_all drops the entries of files that were deleted.
  char star[] = "*";
  char* patterns[] = {star};
  const git_strarray pathspec{patterns, 1};
  AdmitAll all{workdir, admit, {}, {}};
  if (const int code = git_index_add_all(index, &pathspec, GIT_INDEX_ADD_DEFAULT,
                                         admit ? admit_for_add_all : nullptr, &all);
      code != 0) {
    return failure(code, "cannot stage the working tree");
  }
  if (const int code = git_index_update_all(index, &pathspec, nullptr, nullptr); code != 0) {
    return failure(code, "cannot stage the working tree");
  }
  // What changed after it was admitted is checked again as staged. A refused
  // file goes back to HEAD's version even when the index had it already (the
  // user's `git add`): a commit of the index would take it otherwise.
  for (const auto& [path, seen] : all.admitted) {
    if (!admit_staged(repository, index, path, seen, admit)) {
      all.refused.push_back(path);
    }
  }
  // add_all never shows the callback a file the index holds as it is on
  // disk, so what the index had already is asked about here.
  if (admit) {
    auto held = staged_beyond(repository, index, all);
    if (!held) {
      return held.error();
    }
    all.refused.insert(all.refused.end(), held->begin(), held->end());
  }
  for (const auto& path : all.refused) {
    if (const int code = stage_as_head(repository, index, path); code != 0) {
      return failure(code, fmt::format("cannot keep {} out of the commit", path));
    }
  }
  return std::nullopt;
}

} // namespace

Expected<CommitId, Failure> Repository::commit_all(std::string_view message,
                                                   const Signature& author,
                                                   const Signature& committer, const Admit& admit) {
  Index owner;
  auto index = staging_index(m_repository.get(), gitdir(), owner);
  if (!index) {
    return unexpected(index.error());
  }
  auto failed = stage_all(m_repository.get(), *index, m_workdir, admit);
  auto committed = failed ? Expected<CommitId, Failure>(unexpected(std::move(*failed)))
                          : commit_index(*index, message, author, committer);
  if (!committed) {
    // What this step staged in memory must not reach a later commit's
    // index: a retry stages again from what is on disk.
    git_index_read(*index, 1);
  }
  return committed;
}

Expected<CommitId, Failure> Repository::commit_paths(const std::vector<std::string>& paths,
                                                     std::string_view message,
                                                     const Signature& signature,
                                                     std::string_view note) {
  const auto staged = stage_paths(paths, Unreadable::fail);
  if (!staged) {
    return unexpected(staged.error());
  }
  return commit_staged(message, signature, signature, &*staged, note);
}

namespace {

// A file's size and modification time, as lstat finds them; nullopt when it cannot.
std::optional<std::pair<off_t, std::int64_t>> stat_of(const std::filesystem::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    return std::nullopt;
  }
  return std::pair<off_t, std::int64_t>{info.st_size, platform::modified_ns(info)};
}

bool same_file_state(const std::optional<std::pair<off_t, std::int64_t>>& before,
                     const std::optional<std::pair<off_t, std::int64_t>>& after) {
  return before && after && *before == *after;
}

} // namespace

Expected<std::vector<std::string>, Failure>
Repository::stage_paths(const std::vector<std::string>& paths, Unreadable unreadable,
                        const Admit& admit) {
  Index owner;
  auto index = staging_index(m_repository.get(), gitdir(), owner);
  if (!index) {
    return unexpected(index.error());
  }
  std::vector<std::string> staged;
  for (const auto& path : paths) {
    std::error_code error;
    const bool present = std::filesystem::symlink_status(m_workdir / path, error).type() !=
                         std::filesystem::file_type::not_found;
    // Its size and time before it is read, to know it was not being written meanwhile.
    const auto before = present ? stat_of(m_workdir / path) : std::nullopt;
    std::optional<std::string> seen;
    if (present && admit) {
      auto looked = working_bytes(m_workdir / path, admit.max_bytes);
      fault_point("after-read-for-staging");
      const bool let_in = admits(admit, path, looked);
      seen = std::move(looked.bytes);
      if (!let_in) {
        if (const int code = stage_as_head(m_repository.get(), *index, path); code != 0) {
          git_index_read(*index, 1);
          return unexpected(failure(code, fmt::format("cannot keep {} out of the commit", path)));
        }
        continue;
      }
    }
    int code = present ? git_index_add_bypath(*index, path.c_str())
                       : git_index_remove_bypath(*index, path.c_str());
    if (code == 0 && present && admit &&
        !admit_staged(m_repository.get(), *index, path, seen, admit)) {
      code = stage_as_head(m_repository.get(), *index, path);
      if (code == 0) {
        continue; // held back, not staged
      }
    }
    if (code == 0 && present && !same_file_state(before, stat_of(m_workdir / path))) {
      // Written while it was read (a writer in chunks): half a file must not
      // be committed; the next commit takes it once it has settled.
      code = stage_as_head(m_repository.get(), *index, path);
      if (code == 0) {
        spdlog::info("{} changed while it was read; it is left for the next commit", path);
        continue;
      }
    }
    if (code == 0) {
      staged.push_back(path);
      continue;
    }
    auto why = failure(code, present ? fmt::format("cannot stage {}", path)
                                     : fmt::format("cannot stage the removal of {}", path));
    if (unreadable == Unreadable::fail || why.locked == Locked::yes) {
      git_index_read(*index, 1); // drop what this step staged in memory
      return unexpected(std::move(why));
    }
    spdlog::info("{}; it is left for the next commit", why.message);
  }
  return staged;
}

} // namespace engram::git
