// Loose object: one object written to the object database as its own file,
// the way git writes it (objects/xx/<38 hex>: "<type> <size>\0<bytes>",
// deflated), hashed with OpenSSL's SHA-1 and deflated by libdeflate. For the
// trees a commit writes: libgit2 hashes with its collision-detecting SHA-1
// and deflates with zlib, 40 ms of a one-file cycle for a 20,000-entry
// folder's 1.2 MB tree here. Private to git/.
#pragma once

#include <cstddef>
#include <filesystem>
#include <git2.h>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace engram::git::detail {

// Large objects written stored (zlib's framing around the bytes as they
// are, git's level 0), so the commit that needs them does not wait to
// deflate them, and deflated by a helper thread once the commit is made,
// each put back under its name through a flushed temporary and a rename: a
// 20,000-entry folder's 1.2 MB tree takes 10-16 ms to deflate here, the
// most a one-file commit on a 100,000-file store would wait for. Both forms
// are the same object to git.
class LaterDeflate {
public:
  // Objects from this size on are written stored and deflated later.
  static constexpr std::size_t k_from = 64 * 1024;

  LaterDeflate() = default;
  LaterDeflate(const LaterDeflate&) = delete;
  LaterDeflate& operator=(const LaterDeflate&) = delete;
  // Waits for the helper.
  ~LaterDeflate();

  // Queues the loose object `file`, written stored, which holds `header`
  // and `bytes`.
  void add(std::filesystem::path file, std::string header, std::string bytes);

  // Forgets what is queued: those objects stay stored (a commit that failed).
  void drop() { m_queued.clear(); }

  // Has a helper deflate what is queued, once the last helper is done.
  void start();

  // Waits until the helper is done (for tests).
  void wait();

private:
  struct Queued {
    std::filesystem::path file;
    std::string header;
    std::string bytes;
  };
  std::vector<Queued> m_queued;
  std::jthread m_helper;
};

// Writes `bytes` as an object of `type` unless the object database has it,
// and gives its id in `out`; from LaterDeflate::k_from bytes on, stored and
// queued on `later` when one is given. Not flushed: see Repository::flush.
// Returns 0, or a libgit2 error code with its error set, the object database
// as it was (less, at worst, a temporary file in the object's folder).
[[nodiscard]] int write_loose(git_repository* repository, git_object_t type, std::string bytes,
                              git_oid& out, LaterDeflate* later = nullptr);

} // namespace engram::git::detail
