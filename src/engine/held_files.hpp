// HeldFiles: the files a run replaced or removed, held open until its commit
// is made, and how they are freed after. Where the file system discards freed
// blocks as it goes (ext4 without a journal, mounted with `discard`), the
// last reference to a file waits for the device, and in a rename that wait
// happens under the folder's lock, so renames cannot overlap. Held open, a
// replaced or removed file is freed when it is closed: renames and removals
// only change names, and the waits come after.
#pragma once

#include <cstddef>
#include <thread>
#include <vector>

namespace engram::engine {

// How a process frees the files its runs replaced and removed.
enum class Freeing {
  // On helper threads, started once apply has renamed and removed, and
  // waited for before the run returns: for a process that goes on (the
  // daemon, the tests).
  waited,
  // Once the run is done, by a child process nobody waits for (as `git gc
  // --auto` detaches): for a command that exits right after its run. The
  // commit is durable by then; what is left is freeing blocks that no name
  // and no commit refers to. The child holds nothing else of the process
  // (no lock, no pipe), so nothing waits on it.
  detached,
};

// Sets how this process frees them; `waited` until it is called.
void set_freeing(Freeing freeing);

// The name (comm) of a detached child, so that a benchmark can wait for it.
inline constexpr const char* k_freeing_child_name = "engram-free";

// The fault point (ENGRAM_TEST_PAUSE_AT) where a detached child stops, after
// it has closed everything but the held files and before it frees those.
inline constexpr const char* k_freeing_child_pause = "freeing-child";

// The files an apply replaced or removed, still open. Whatever is still held
// when this is destroyed is closed then, as close() does.
class HeldFiles {
public:
  HeldFiles() = default;
  HeldFiles(const HeldFiles&) = delete;
  HeldFiles& operator=(const HeldFiles&) = delete;
  ~HeldFiles() { close(); }

  // How many files one apply may hold: half the open-file limit, so the
  // reads that still need descriptors always find one.
  static std::size_t budget();

  // Takes the descriptors (-1 for none) to close later.
  void take(std::vector<int> descriptors);

  // Under Freeing::waited, starts closing them on helper threads and
  // returns; fewer than 64 are closed before it returns (a thread would cost
  // more). Under Freeing::detached, keeps them for close().
  void close_in_background();

  // Under Freeing::waited, closes what is held and waits for every close,
  // background ones too. Under Freeing::detached, hands 64 or more to a
  // child process and returns once it holds nothing else (the child then
  // closes them in up to four shares, by itself and helpers it forks); fewer,
  // or when no child can be made, are closed as under Freeing::waited.
  void close();

private:
  // Starts closing what is held on helper threads (fewer than 64: here).
  void start_closing();

  // Hands what is held to a child process; false, holding it still, when
  // none could be made.
  bool close_in_child();

  std::vector<int> m_descriptors;
  std::vector<std::jthread> m_closers;
};

} // namespace engram::engine
