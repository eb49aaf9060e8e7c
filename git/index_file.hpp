// Index file: the repository's index written to disk the way git's format
// describes it (Documentation/gitformat-index, version 4: paths
// prefix-compressed), from the entries libgit2 holds in memory, hashed with
// OpenSSL's SHA-1. libgit2 writes the same entries but hashes them with its
// collision-detecting SHA-1 a few kilobytes at a time and builds each entry
// on the heap: 60-110 ms for a 100,000-file store's 7.2 MB index on every
// commit here, most of a one-file cycle. Made on a helper thread while the
// commit writes its trees, and put in place once they are durable. Private
// to git/.
#pragma once

#include <filesystem>
#include <git2.h>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace engram::git::detail {

class RetiredFiles;

// One write of an index's file: its bytes made on a helper thread from the
// moment it starts, the file replaced when it finishes.
class IndexFile {
public:
  // Starts making the file of `index`, which must not change until finish
  // (reading it is fine). nullopt when the index holds what only libgit2
  // writes (conflicts, resolve-undo or rename records, case-folded order) or
  // there is no index on disk yet: write it with git_index_write.
  //
  // An entry whose file changed at or after the index on disk was written
  // (racily clean: a change in the same clock tick would leave its stat data
  // as it was) and whose file no longer holds the entry's blob is written
  // with size 0, and kept so in memory, as git and libgit2 do: its stat data
  // never passes for current again. Not written: the cached trees (git and
  // libgit2 rebuild them when they need them).
  static std::optional<IndexFile> start(git_repository* repository, git_index* index);

  IndexFile(IndexFile&&) noexcept;
  IndexFile& operator=(IndexFile&&) = delete;
  IndexFile(const IndexFile&) = delete;
  IndexFile& operator=(const IndexFile&) = delete;
  // Waits for the helper; writes nothing.
  ~IndexFile();

  // Waits for the bytes and replaces the file with them through
  // `<file>.lock` and a rename, as git does; the file replaced is held by
  // `retired` (see RetiredFiles). libgit2's `index` is given the new
  // checksum, so it does not read back what it holds. Returns 0, or a
  // libgit2 error code with its error set (GIT_ELOCKED while index.lock is
  // held), the file on disk as it was.
  [[nodiscard]] int finish(git_index* index, RetiredFiles& retired);

private:
  // What the helper makes.
  struct Made {
    std::string bytes;        // the whole file, its checksum last; empty if hashing failed
    std::vector<char> smudge; // per entry: written with size 0
    git_oid checksum{};
  };

  IndexFile();

  std::filesystem::path m_file;
  std::unique_ptr<Made> m_made;
  std::jthread m_maker; // after m_made: joined before it is freed
};

} // namespace engram::git::detail
