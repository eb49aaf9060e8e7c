// The platform's calls with POSIX only, and Apple's documented calls on
// macOS (see platform.hpp): what a build for a system other than Linux
// has, and what the portable preset builds on Linux to keep it so.
#include "base/platform.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fcntl.h>
#include <mutex>
#include <signal.h>
#include <stdio.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif

namespace engram::platform {
namespace {

// argv[0] as main() had it, for executable_path().
std::string& program() {
  static std::string argv0;
  return argv0;
}

// Sets FD_CLOEXEC on `fd`, and O_NONBLOCK when `nonblocking`; false when it failed.
bool set_flags(int fd, bool nonblocking) {
  if (::fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
    return false;
  }
  if (!nonblocking) {
    return true;
  }
  const int flags = ::fcntl(fd, F_GETFL);
  return flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

// Asks that a write to `fd` whose peer is gone fail with EPIPE instead of
// raising SIGPIPE, where the system has the option (macOS, the BSDs).
void no_sigpipe([[maybe_unused]] int fd) {
#ifdef SO_NOSIGPIPE
  const int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof on);
#endif
}

// Closes `fd` keeping errno, for the failure paths.
int close_keeping_errno(int fd) {
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return -1;
}

// The first folder of PATH holding an executable `name`.
std::optional<std::filesystem::path> search_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string folders = path != nullptr ? path : "";
  for (std::size_t start = 0; start <= folders.size();) {
    const auto end = std::min(folders.find(':', start), folders.size());
    const auto candidate = std::filesystem::path(folders.substr(start, end - start)) / name;
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    start = end + 1;
  }
  return std::nullopt;
}

} // namespace

const char* name() {
  return "posix";
}

std::int64_t modified_ns(const struct stat& info) {
#ifdef __APPLE__
  const auto& at = info.st_mtimespec;
#else
  const auto& at = info.st_mtim; // POSIX.1-2008
#endif
  return static_cast<std::int64_t>(at.tv_sec) * 1'000'000'000 + at.tv_nsec;
}

std::int64_t changed_ns(const struct stat& info) {
#ifdef __APPLE__
  const auto& at = info.st_ctimespec;
#else
  const auto& at = info.st_ctim;
#endif
  return static_cast<std::int64_t>(at.tv_sec) * 1'000'000'000 + at.tv_nsec;
}

int flush_file_system(int folder_fd) {
  // POSIX has no call for one file system: sync() schedules every write of
  // every file system, then the folder is flushed; on macOS F_FULLFSYNC
  // also makes the drive write out its own cache, which fsync does not.
  ::sync();
#ifdef F_FULLFSYNC
  if (::fcntl(folder_fd, F_FULLFSYNC) == 0) {
    return 0;
  }
#endif
  return ::fsync(folder_fd) == 0 || errno == EINVAL ? 0 : errno;
}

std::optional<std::filesystem::path> executable_path() {
#ifdef __APPLE__
  char buffer[PATH_MAX];
  std::uint32_t size = sizeof buffer;
  if (::_NSGetExecutablePath(buffer, &size) == 0) {
    std::error_code error;
    auto path = std::filesystem::canonical(buffer, error);
    return error ? std::filesystem::path(buffer) : path;
  }
#endif
  const std::string& argv0 = program();
  if (argv0.empty()) {
    return std::nullopt;
  }
  std::error_code error;
  if (argv0.find('/') != std::string::npos) {
    auto path = std::filesystem::canonical(argv0, error);
    return error ? std::nullopt : std::optional(path);
  }
  const auto found = search_path(argv0);
  if (!found) {
    return std::nullopt;
  }
  auto path = std::filesystem::canonical(*found, error);
  return error ? std::nullopt : std::optional(path);
}

void remember_program(const char* argv0) {
  static std::once_flag once;
  std::call_once(once, [&] { program() = argv0 != nullptr ? argv0 : ""; });
}

bool cloexec_pipe(int ends[2]) {
  if (::pipe(ends) != 0) {
    return false;
  }
  if (!set_flags(ends[0], false) || !set_flags(ends[1], false)) {
    close_keeping_errno(ends[1]);
    close_keeping_errno(ends[0]);
    return false;
  }
  return true;
}

int make_socket(int domain, int type, bool nonblocking) {
  const int fd = ::socket(domain, type, 0);
  if (fd < 0) {
    return -1;
  }
  no_sigpipe(fd);
  return set_flags(fd, nonblocking) ? fd : close_keeping_errno(fd);
}

int accept_connection(int listener) {
  const int fd = ::accept(listener, nullptr, nullptr);
  if (fd < 0) {
    return -1;
  }
  no_sigpipe(fd);
  return set_flags(fd, true) ? fd : close_keeping_errno(fd);
}

std::optional<uid_t> peer_uid(int fd) {
#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
  uid_t uid = 0;
  gid_t gid = 0;
  if (::getpeereid(fd, &uid, &gid) == 0) {
    return uid;
  }
#else
  static_cast<void>(fd);
#endif
  return std::nullopt;
}

ssize_t send_quietly(int fd, const void* data, std::size_t size, bool dont_wait) {
  // The daemon ignores SIGPIPE (daemon/signals), and sockets made here
  // carry SO_NOSIGPIPE where the system has it; MSG_DONTWAIT is not POSIX.
  int flags = 0;
#ifdef MSG_DONTWAIT
  flags |= dont_wait ? MSG_DONTWAIT : 0;
#else
  static_cast<void>(dont_wait);
#endif
  return ::send(fd, data, size, flags);
}

int populate_flag() {
  return 0;
}

void trim_heap() {} // no portable call: freed memory stays with the allocator

int exchange_names(const std::filesystem::path& a, const std::filesystem::path& b) {
#ifdef __APPLE__
  return ::renamex_np(a.c_str(), b.c_str(), RENAME_SWAP) == 0 ? 0 : errno;
#else
  (void)a;
  (void)b;
  return ENOTSUP; // POSIX has no call that swaps two names
#endif
}

std::optional<bool> held_open_by_any_process(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    return false; // gone: nobody holds it
  }
  return std::nullopt; // no portable way to list other processes' files
}

std::optional<std::filesystem::path> path_of_descriptor(int) {
  return std::nullopt;
}

} // namespace engram::platform
