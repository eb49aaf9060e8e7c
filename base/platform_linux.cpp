// The platform's calls on Linux (see platform.hpp).
#include "base/platform.hpp"

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <string>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

namespace engram::platform {

const char* name() {
  return "linux";
}

std::int64_t modified_ns(const struct stat& info) {
  return static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
}

std::int64_t changed_ns(const struct stat& info) {
  return static_cast<std::int64_t>(info.st_ctim.tv_sec) * 1'000'000'000 + info.st_ctim.tv_nsec;
}

int flush_file_system(int folder_fd) {
  // One call makes every file written before it durable, where an fsync
  // per file costs one disk flush each.
  return ::syncfs(folder_fd) == 0 ? 0 : errno;
}

std::optional<std::filesystem::path> executable_path() {
  std::error_code error;
  auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    return std::nullopt;
  }
  return path;
}

void remember_program(const char*) {} // /proc/self/exe says it

bool cloexec_pipe(int ends[2]) {
  return ::pipe2(ends, O_CLOEXEC) == 0;
}

int make_socket(int domain, int type, bool nonblocking) {
  return ::socket(domain, type | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
}

int accept_connection(int listener) {
  return ::accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

std::optional<uid_t> peer_uid(int fd) {
  ucred credentials{};
  socklen_t size = sizeof credentials;
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0 ||
      size != sizeof credentials) {
    return std::nullopt;
  }
  return credentials.uid;
}

ssize_t send_quietly(int fd, const void* data, std::size_t size, bool dont_wait) {
  return ::send(fd, data, size, MSG_NOSIGNAL | (dont_wait ? MSG_DONTWAIT : 0));
}

int populate_flag() {
  return MAP_POPULATE;
}

void trim_heap() {
  ::malloc_trim(0);
}

int exchange_names(const std::filesystem::path& a, const std::filesystem::path& b) {
  return ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0 ? 0 : errno;
}

std::optional<bool> held_open_by_any_process(const std::filesystem::path& path) {
  struct stat target {};
  if (::stat(path.c_str(), &target) != 0) {
    return false; // gone: nobody holds it
  }
  // Every /proc/<pid>/fd entry this user may read, compared by device and inode.
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) {
    return std::nullopt;
  }
  bool held = false;
  while (dirent* process = ::readdir(proc)) {
    const std::string pid = process->d_name;
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    const std::string fd_folder = "/proc/" + pid + "/fd";
    DIR* fds = ::opendir(fd_folder.c_str());
    if (fds == nullptr) {
      continue; // another user's process, or one that just ended
    }
    while (dirent* fd = ::readdir(fds)) {
      struct stat open_file {};
      const std::string link = fd_folder + "/" + fd->d_name;
      if (fd->d_name[0] != '.' && ::stat(link.c_str(), &open_file) == 0 &&
          open_file.st_dev == target.st_dev && open_file.st_ino == target.st_ino) {
        held = true;
        break;
      }
    }
    ::closedir(fds);
    if (held) {
      break;
    }
  }
  ::closedir(proc);
  return held;
}

std::optional<std::filesystem::path> path_of_descriptor(int fd) {
  return std::filesystem::path("/proc/self/fd") / std::to_string(fd);
}

} // namespace engram::platform
