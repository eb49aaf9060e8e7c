// Loose object: one object written to the object database as its own file,
// the way git writes it (objects/xx/<38 hex>: "<type> <size>\0<bytes>",
// deflated), hashed with OpenSSL's SHA-1 and deflated by libdeflate. For the
// trees a commit writes: libgit2 hashes with its collision-detecting SHA-1
// and deflates with zlib, 40 ms of a one-file cycle for a 20,000-entry
// folder's 1.2 MB tree here. Private to git/.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <git2.h>
#include <memory>
#include <mutex>
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
  // Has the helper finish what it was handed, and waits for it.
  ~LaterDeflate();

  // Queues the loose object `file`, written stored, which holds `header`
  // and `bytes`; the helper reads `bytes` until it is done (see busy).
  void add(std::filesystem::path file, std::string header,
           std::shared_ptr<const std::string> bytes);

  // Forgets what is queued: those objects stay stored (a commit that failed).
  void drop() { m_queued.clear(); }

  // Hands what is queued to the helper (started the first time), behind
  // what it has yet to do. Never waits: the commit that calls it is done.
  void start();

  // True while the helper has some of what it was handed to deflate: the
  // bytes it was given are not to be changed.
  bool busy() const;

  // Waits until the helper has done all it was handed (for tests).
  void wait() const;

private:
  struct Queued {
    std::filesystem::path file;
    std::string header;
    std::shared_ptr<const std::string> bytes;
  };
  // What the helper shares with the thread that hands it work.
  struct Handed {
    mutable std::mutex mutex;
    mutable std::condition_variable changed;
    std::deque<Queued> work;
    bool working = false; // one taken from `work`, its bytes not yet let go
    bool stop = false;    // the helper ends once `work` is done
  };
  // The helper's loop: deflates what it is handed, in order, until stopped.
  static void deflate_handed(Handed& handed);

  std::vector<Queued> m_queued;
  Handed m_handed;
  std::jthread m_helper; // last: it ends before what it uses goes
};

// Writes `bytes` as an object of `type` unless the object database has it,
// and gives its id in `out`; from LaterDeflate::k_from bytes on, stored and
// queued on `later` when one is given. Not flushed: see Repository::flush.
// Returns 0, or a libgit2 error code with its error set, the object database
// as it was (less, at worst, a temporary file in the object's folder).
[[nodiscard]] int write_loose(git_repository* repository, git_object_t type, std::string bytes,
                              git_oid& out, LaterDeflate* later = nullptr);

// The same for an object whose id, `id`, its caller hashed already (see
// TreeBytes); `later` is given `bytes` to deflate, not a copy.
[[nodiscard]] int write_loose_hashed(git_repository* repository, git_object_t type,
                                     std::shared_ptr<const std::string> bytes, const git_oid& id,
                                     LaterDeflate* later);

} // namespace engram::git::detail
