// Index file: the repository's index written to disk the way git's format
// describes it (Documentation/gitformat-index, version 4: paths
// prefix-compressed), from the entries libgit2 holds in memory, hashed with
// OpenSSL's SHA-1. libgit2 writes the same entries but hashes them with its
// collision-detecting SHA-1 a few kilobytes at a time and builds each entry
// on the heap: 60-110 ms for a 100,000-file store's 7.2 MB index on every
// commit here, most of a one-file cycle. Made and put in place on a helper
// thread once the commit has moved HEAD: the commit does not wait for it.
// Private to git/.
#pragma once

#include <chrono>
#include <filesystem>
#include <git2.h>
#include <memory>
#include <optional>
#include <thread>

namespace engram::git::detail {

// The file a commit leaves in .git while the index's file is behind HEAD:
// made before HEAD moves, removed once the index is in place. Found by a
// later run (Repository::catch_up_index), it means the process that moved
// HEAD died, or could not write the index, before the index caught up.
std::filesystem::path behind_marker(const std::filesystem::path& gitdir);

// One write of an index's file, by a helper thread that waits until it is
// told to publish (the commit made) or to drop it (the commit failed).
class IndexFile {
public:
  // Starts the helper that writes the file of `index`, which must not change
  // from publish until finish (reading it is fine). nullopt when the index
  // holds what only libgit2 writes (resolve-undo or rename records,
  // case-folded order) or there is no index on disk yet: write it with
  // git_index_write. An index with conflicts is found by the helper, which
  // then writes nothing, and written by libgit2 in finish.
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
  // Unpublished: tells the helper to write nothing, and waits for it.
  ~IndexFile();

  // Whether `<file>.lock` is there: another process is writing the index.
  [[nodiscard]] bool locked() const;

  // Leaves the marker (behind_marker) that says the index is about to fall
  // behind HEAD, for the helper to remove once the file is in place: called
  // before HEAD moves. Returns 0, or a libgit2 error code with its error set.
  [[nodiscard]] int mark_behind(const std::filesystem::path& gitdir);

  // Has the helper make the file's bytes and replace the file with them,
  // through `<file>.lock` as git does: the lock taken (another process's
  // waited out for up to `lock_wait`), the bytes written and flushed to the
  // device, then renamed over the file, the file replaced held open until
  // after the rename (see RetiredFiles). Returns at once.
  void publish(std::chrono::milliseconds lock_wait);

  // Waits for the helper and, when the file was replaced, gives libgit2's
  // `index` the new checksum, so it does not read back what it holds, and
  // the smudged entries' size 0. Returns 0, or a libgit2 error code with its
  // error set (GIT_ELOCKED when index.lock stayed held), the file on disk as
  // it was. Not published: returns 0 and changes nothing.
  [[nodiscard]] int finish(git_index* index);

  // How long the file took to be in place once published (zero until
  // finish, or when nothing was written).
  [[nodiscard]] double took_ms() const;

private:
  struct Made;

  IndexFile();

  std::unique_ptr<Made> m_made;
  std::jthread m_maker; // after m_made: joined before it is freed
};

} // namespace engram::git::detail
