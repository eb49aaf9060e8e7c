// HeldFiles: closing on helper threads that the run waits for, or in a child
// process that nobody waits for. The child is made by fork() from a process
// with other threads (git's helpers), so between fork and _exit it makes only
// system calls: no allocation, no lock, nothing another thread could hold.
#include "engine/held_files.hpp"

#include "base/fault.hpp"
#include "base/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace engram::engine {
namespace {

std::atomic<Freeing> g_freeing{Freeing::waited};

// Fewer than this many are closed where they are: a thread or a child would cost more.
constexpr std::size_t k_few = 64;

// This process's open-file limit (its soft value), at most 2^20; 0 when unknown.
std::size_t open_file_limit() {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return 0;
  }
  constexpr rlim_t k_most = 1 << 20;
  return static_cast<std::size_t>(std::min(limit.rlim_cur, k_most));
}

// Closes the descriptors in [first, last], with raw system calls.
void close_between(unsigned int first, unsigned int last, unsigned int open_max) {
  if (first > last) {
    return;
  }
  if (::syscall(SYS_close_range, first, last, 0U) == 0) {
    return;
  }
  // A kernel before 5.9: one by one, up to the open-file limit.
  for (unsigned int fd = first; fd <= last && fd < open_max; ++fd) {
    ::syscall(SYS_close, fd);
  }
}

// Closes every descriptor but `kept` (sorted).
void close_all_but(const std::vector<int>& kept, unsigned int open_max) {
  unsigned int from = 0;
  for (const int fd : kept) {
    if (static_cast<unsigned int>(fd) > from) {
      close_between(from, static_cast<unsigned int>(fd) - 1, open_max);
    }
    from = static_cast<unsigned int>(fd) + 1;
  }
  close_between(from, ~0U, open_max);
}

// The detached child's whole life. It keeps `kept` (the held files and
// `go_read`) and closes every other descriptor: the run lock, the
// repository's files, stdout and stderr, and `ready`'s write end, which
// tells the parent it may go on. Once `go_read` ends (the parent has closed
// its own copies), it forks a helper per share but the first, each of which
// closes its share, and closes the first share itself: each close is the
// last reference and waits for the device, so the waits overlap. Forking
// costs the size of the page tables; here it is off the command's path.
// System calls only (see the top).
[[noreturn]] void free_in_child(const std::vector<int>& kept,
                                const std::vector<std::vector<int>>& shares, int go_read,
                                bool pause, unsigned int open_max) {
  // Its own session: a terminal's ^C meant for the next command is not for it.
  ::setsid();
  ::prctl(PR_SET_NAME, k_freeing_child_name, 0, 0, 0);
  close_all_but(kept, open_max);
  char byte = 0;
  while (::syscall(SYS_read, go_read, &byte, 1) < 0 && errno == EINTR) {
  }
  ::syscall(SYS_close, go_read);
  if (pause) {
    ::kill(::getpid(), SIGSTOP);
  }
  std::size_t mine = 0; // the share this process frees
  for (std::size_t s = 1; s < shares.size(); ++s) {
    // fork() itself would run the atfork handlers of libraries: the bare system call.
    if (::syscall(SYS_clone, SIGCHLD, nullptr, nullptr, nullptr, 0UL) == 0) {
      mine = s;
      break;
    }
    // A helper that could not be made: its share is freed below, with the others' copies.
  }
  // First the copies of the other shares: their owners hold them too, so
  // these closes do not wait, and each run of them between this share's is
  // one system call. Then its own: the last references.
  close_all_but(shares[mine], open_max);
  for (const int fd : shares[mine]) {
    ::syscall(SYS_close, fd);
  }
  ::_exit(0);
}

} // namespace

void set_freeing(Freeing freeing) {
  g_freeing.store(freeing);
}

std::size_t HeldFiles::budget() {
  return open_file_limit() / 2;
}

void HeldFiles::take(std::vector<int> descriptors) {
  std::erase(descriptors, -1);
  m_descriptors.insert(m_descriptors.end(), descriptors.begin(), descriptors.end());
}

void HeldFiles::close_in_background() {
  if (g_freeing.load() == Freeing::detached) {
    return; // close() hands them to a child once the run is done
  }
  start_closing();
}

void HeldFiles::close() {
  if (g_freeing.load() == Freeing::detached && m_descriptors.size() >= k_few) {
    (void)close_in_child(); // when no child can be made, they are still held
  }
  if (!m_descriptors.empty()) {
    start_closing();
  }
  m_closers.clear(); // joined
}

void HeldFiles::start_closing() {
  // Each close may wait for the device: on several threads, the waits overlap.
  constexpr std::size_t k_threads = 4;
  if (m_descriptors.size() < k_few) {
    // A few (a daemon's one-file cycle): closed here, cheaper than a thread.
    for (const int descriptor : m_descriptors) {
      ::close(descriptor);
    }
    m_descriptors.clear();
    return;
  }
  m_closers.emplace_back([descriptors = std::move(m_descriptors)] {
    for_each_waiting(descriptors.size(), k_few, k_threads,
                     [&](std::size_t i) { ::close(descriptors[i]); });
  });
  m_descriptors.clear();
}

bool HeldFiles::close_in_child() {
  // Everything the child reads is made here, before the fork.
  std::vector<int> held = m_descriptors;
  std::sort(held.begin(), held.end());
  held.erase(std::unique(held.begin(), held.end()), held.end());
  const std::size_t limit = open_file_limit();
  const auto open_max = static_cast<unsigned int>(limit != 0 ? limit : std::size_t{1} << 20);
  const bool pause = fault_pauses_at(k_freeing_child_pause);
  // `ready`: the child closes its write end with everything else, and the
  // parent, reading its end to the end, knows the child holds only the held
  // files. `go`: the parent closes its write end once it has closed its own
  // copies of them, so the child's closes are the last references, and the
  // waits are the child's.
  int ready[2];
  int go[2];
  if (::pipe2(ready, O_CLOEXEC) != 0) {
    return false;
  }
  if (::pipe2(go, O_CLOEXEC) != 0) {
    ::close(ready[0]);
    ::close(ready[1]);
    return false;
  }
  // Up to four shares, closed by as many processes at once.
  constexpr std::size_t k_shares = 4;
  const std::size_t count = std::max<std::size_t>(1, std::min(k_shares, held.size() / k_few));
  std::vector<std::vector<int>> shares(count);
  for (std::size_t i = 0; i < held.size(); ++i) {
    shares[i * count / held.size()].push_back(held[i]);
  }
  std::vector<int> kept = held;
  kept.insert(std::lower_bound(kept.begin(), kept.end(), go[0]), go[0]);
  const pid_t child = ::fork();
  if (child == 0) {
    free_in_child(kept, shares, go[0], pause, open_max);
  }
  ::close(ready[1]);
  ::close(go[0]);
  if (child < 0) {
    ::close(ready[0]);
    ::close(go[1]);
    return false;
  }
  char byte = 0;
  while (::read(ready[0], &byte, 1) < 0 && errno == EINTR) {
  }
  ::close(ready[0]);
  for (const int fd : held) {
    ::close(fd); // the child holds it too: not the last reference, no wait
  }
  ::close(go[1]);
  m_descriptors.clear();
  return true;
}

} // namespace engram::engine
