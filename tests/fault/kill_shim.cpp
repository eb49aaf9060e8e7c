// Kill shim: preloaded into a real engram run (LD_PRELOAD) by the randomized
// kill test. It counts the process's calls that change the file system —
// opens for writing, writes, renames, removals, fsyncs, new folders, its own
// and libgit2's alike — and SIGKILLs the process just before the call
// ENGRAM_TEST_KILL_AT_CALL names, so a seeded random number is a kill at a
// reproducible moment anywhere in a run, between engram's named fault points
// and inside git's own writes. ENGRAM_TEST_COUNT_CALLS_TO names a file that
// gets the number of such calls of a run that ends normally.
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

namespace {

std::atomic<long> g_calls{0};

// The call to die at (1-based); 0 when none.
long kill_at() {
  static const long k_at = [] {
    const char* value = std::getenv("ENGRAM_TEST_KILL_AT_CALL");
    return value != nullptr ? std::atol(value) : 0L;
  }();
  return k_at;
}

// Counts one call that changes the file system, dying first when it is the one.
void tick() {
  if (++g_calls == kill_at()) {
    ::kill(::getpid(), SIGKILL);
  }
}

// The next definition of `name` after this library's: libc's.
template <typename F> F next(const char* name) {
  return reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

// True for open flags that can change a file.
bool writes(int flags) {
  return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) != 0;
}

// Writes the count to ENGRAM_TEST_COUNT_CALLS_TO at a normal exit, with raw
// system calls so that the writing is not counted.
__attribute__((destructor)) void report() {
  const char* path = std::getenv("ENGRAM_TEST_COUNT_CALLS_TO");
  if (path == nullptr) {
    return;
  }
  char text[32];
  const int n = std::snprintf(text, sizeof text, "%ld\n", g_calls.load());
  const long fd = ::syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0 && n > 0) {
    ::syscall(SYS_write, fd, text, static_cast<std::size_t>(n));
    ::syscall(SYS_close, fd);
  }
}

} // namespace

extern "C" {

int open(const char* path, int flags, ...) {
  mode_t mode = 0;
  if ((flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE) {
    va_list args;
    va_start(args, flags);
    mode = static_cast<mode_t>(va_arg(args, int));
    va_end(args);
  }
  if (writes(flags)) {
    tick();
  }
  static const auto real = next<int (*)(const char*, int, ...)>("open");
  return real(path, flags, mode);
}

int open64(const char* path, int flags, ...) {
  mode_t mode = 0;
  if ((flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE) {
    va_list args;
    va_start(args, flags);
    mode = static_cast<mode_t>(va_arg(args, int));
    va_end(args);
  }
  if (writes(flags)) {
    tick();
  }
  static const auto real = next<int (*)(const char*, int, ...)>("open64");
  return real(path, flags, mode);
}

int openat(int dir, const char* path, int flags, ...) {
  mode_t mode = 0;
  if ((flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE) {
    va_list args;
    va_start(args, flags);
    mode = static_cast<mode_t>(va_arg(args, int));
    va_end(args);
  }
  if (writes(flags)) {
    tick();
  }
  static const auto real = next<int (*)(int, const char*, int, ...)>("openat");
  return real(dir, path, flags, mode);
}

ssize_t write(int fd, const void* buffer, size_t size) {
  if (fd > 2) { // stdout and stderr are not the file system's
    tick();
  }
  static const auto real = next<ssize_t (*)(int, const void*, size_t)>("write");
  return real(fd, buffer, size);
}

ssize_t pwrite64(int fd, const void* buffer, size_t size, off_t offset) {
  tick();
  static const auto real = next<ssize_t (*)(int, const void*, size_t, off_t)>("pwrite64");
  return real(fd, buffer, size, offset);
}

ssize_t writev(int fd, const struct iovec* parts, int count) {
  if (fd > 2) {
    tick();
  }
  static const auto real = next<ssize_t (*)(int, const struct iovec*, int)>("writev");
  return real(fd, parts, count);
}

int rename(const char* from, const char* to) {
  tick();
  static const auto real = next<int (*)(const char*, const char*)>("rename");
  return real(from, to);
}

int renameat(int from_dir, const char* from, int to_dir, const char* to) {
  tick();
  static const auto real = next<int (*)(int, const char*, int, const char*)>("renameat");
  return real(from_dir, from, to_dir, to);
}

int unlink(const char* path) {
  tick();
  static const auto real = next<int (*)(const char*)>("unlink");
  return real(path);
}

int unlinkat(int dir, const char* path, int flags) {
  tick();
  static const auto real = next<int (*)(int, const char*, int)>("unlinkat");
  return real(dir, path, flags);
}

int rmdir(const char* path) {
  tick();
  static const auto real = next<int (*)(const char*)>("rmdir");
  return real(path);
}

int mkdir(const char* path, mode_t mode) {
  tick();
  static const auto real = next<int (*)(const char*, mode_t)>("mkdir");
  return real(path, mode);
}

int fsync(int fd) {
  tick();
  static const auto real = next<int (*)(int)>("fsync");
  return real(fd);
}

int fdatasync(int fd) {
  tick();
  static const auto real = next<int (*)(int)>("fdatasync");
  return real(fd);
}

int ftruncate(int fd, off_t length) {
  tick();
  static const auto real = next<int (*)(int, off_t)>("ftruncate");
  return real(fd, length);
}

} // extern "C"
