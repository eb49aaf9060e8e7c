// The operating system's calls that differ between platforms, behind one
// interface: platform_linux.cpp uses what Linux has (syncfs, /proc, accept4,
// pipe2, MSG_NOSIGNAL, MAP_POPULATE, glibc's malloc_trim);
// platform_posix.cpp uses only POSIX and, on macOS, Apple's documented
// calls. cmake/platform.cmake chooses one; no other file of the product
// names a call that only one platform has (tests/platform/check.py).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <sys/stat.h>
#include <sys/types.h>

namespace engram::platform {

// Which backend this build has: "linux" or "posix".
const char* name();

// The modification and status-change times of `info`, in nanoseconds since the epoch.
std::int64_t modified_ns(const struct stat& info);
std::int64_t changed_ns(const struct stat& info);

// Makes every file written before it on the file system that holds the
// folder open at `folder_fd` durable: 0, or errno.
int flush_file_system(int folder_fd);

// This executable's own path; nullopt when the system cannot say.
std::optional<std::filesystem::path> executable_path();

// Remembers argv[0], for executable_path() where the system has no call for
// it: called first thing in main.
void remember_program(const char* argv0);

// A pipe whose two ends close on exec; false (errno set) when it failed.
bool cloexec_pipe(int ends[2]);

// A socket of `domain` and `type` that closes on exec, non-blocking when
// `nonblocking`; -1 (errno set) when it failed.
int make_socket(int domain, int type, bool nonblocking);

// Accepts a connection on `listener` as a non-blocking descriptor that
// closes on exec; -1 (errno set) when there is none or it failed.
int accept_connection(int listener);

// The uid of the process at the other end of a connected Unix socket, as
// the kernel recorded it at connect(); nullopt when the system cannot tell.
std::optional<uid_t> peer_uid(int fd);

// send(2) that never raises SIGPIPE on a peer gone; `dont_wait` for one
// call that must not block even on a blocking socket.
ssize_t send_quietly(int fd, const void* data, std::size_t size, bool dont_wait = false);

// The mmap flags that map a file's pages in one call where the system can
// (Linux's MAP_POPULATE); 0 elsewhere.
int populate_flag();

// Gives memory the C library's allocator holds free back to the system
// where it has a call for it (glibc's malloc_trim).
void trim_heap();

// Whether some process has `path` open: nullopt when the system cannot tell.
std::optional<bool> held_open_by_any_process(const std::filesystem::path& path);

// Swaps the files named `a` and `b` in one step, so that no file put at
// either name a moment before is lost between two renames: 0, or errno
// (ENOTSUP or EINVAL where the system or file system has no such call,
// ENOENT when either is missing).
int exchange_names(const std::filesystem::path& a, const std::filesystem::path& b);

// A path through which the dynamic loader opens exactly the file open at
// `fd` (Linux: /proc/self/fd/N), so what was checked is what is loaded;
// nullopt where there is none (the file is loaded by its own path).
std::optional<std::filesystem::path> path_of_descriptor(int fd);

} // namespace engram::platform
