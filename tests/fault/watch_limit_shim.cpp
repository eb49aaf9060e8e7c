// Watch limit shim: preloaded into a real `engram daemon` (LD_PRELOAD) by the
// out-of-watches test. inotify_add_watch fails with ENOSPC, as the kernel's
// does when fs.inotify.max_user_watches is reached, once the process holds
// ENGRAM_TEST_MAX_WATCHES watches; lowering the real sysctl instead would
// starve every other program of the machine, the test runner's included.
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <set>
#include <sys/inotify.h>
#include <utility>

namespace {

// The most watches the process may hold; negative when no limit was asked for.
long max_watches() {
  static const long k_max = [] {
    const char* value = std::getenv("ENGRAM_TEST_MAX_WATCHES");
    return value != nullptr && *value != '\0' ? std::atol(value) : -1L;
  }();
  return k_max;
}

// The watches this process holds, as (inotify descriptor, watch descriptor).
std::mutex g_mutex;
std::set<std::pair<int, int>> g_watches;

// The next definition of `name` after this library's: libc's.
template <typename F> F next(const char* name) {
  return reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

} // namespace

extern "C" int inotify_add_watch(int fd, const char* path, std::uint32_t mask) {
  static const auto real = next<int (*)(int, const char*, std::uint32_t)>("inotify_add_watch");
  static const auto remove = next<int (*)(int, int)>("inotify_rm_watch");
  const int wd = real(fd, path, mask);
  if (wd < 0 || max_watches() < 0) {
    return wd;
  }
  const std::lock_guard lock(g_mutex);
  if (g_watches.contains({fd, wd})) {
    return wd; // a folder watched already: the kernel made no new watch
  }
  if (static_cast<long>(g_watches.size()) >= max_watches()) {
    remove(fd, wd);
    errno = ENOSPC;
    return -1;
  }
  g_watches.insert({fd, wd});
  return wd;
}

extern "C" int inotify_rm_watch(int fd, int wd) {
  static const auto real = next<int (*)(int, int)>("inotify_rm_watch");
  {
    const std::lock_guard lock(g_mutex);
    g_watches.erase({fd, wd});
  }
  return real(fd, wd);
}
