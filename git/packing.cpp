// Packing: loose objects into one pack (see packing.hpp).
#include "git/packing.hpp"

#include "base/durability.hpp"
#include "base/fault.hpp"
#include "git/libgit2.hpp"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <git2/odb_backend.h>
#include <git2/sys/odb_backend.h>
#include <memory>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace engram::git {

namespace {

namespace fs = std::filesystem;

using detail::Owned;

struct FreeRepository {
  void operator()(git_repository* repository) const { git_repository_free(repository); }
};
using RepositoryHandle = std::unique_ptr<git_repository, FreeRepository>;
using Packbuilder = Owned<git_packbuilder, git_packbuilder_free>;
void free_backend(git_odb_backend* backend) { backend->free(backend); }
using OdbBackend = Owned<git_odb_backend, free_backend>;

// The name of the file a packer holds with flock while it works. Not a
// `.lock` file: those are git's, and engram waits a git command's out.
constexpr const char* k_packing_lock = "engram-packing";

// One loose object: its id and its size on disk.
struct Loose {
  git_oid id{};
  std::uint64_t bytes = 0;
};

bool is_hex(std::string_view text) {
  return text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// Every loose object under `objects` (XX/ folders of 38-hex-digit files);
// temporaries and anything else are not objects and are skipped.
std::vector<Loose> list_loose(const fs::path& objects) {
  std::vector<Loose> found;
  char folder_name[3] = {};
  for (int folder = 0; folder < 256; ++folder) {
    std::snprintf(folder_name, sizeof folder_name, "%02x", folder);
    const fs::path path = objects / folder_name;
    DIR* dir = ::opendir(path.c_str());
    if (dir == nullptr) {
      continue; // no object there yet
    }
    while (const dirent* entry = ::readdir(dir)) {
      const std::string_view name = entry->d_name;
      struct stat info {};
      if (name.size() != GIT_OID_HEXSZ - 2 || !is_hex(name) ||
          ::fstatat(::dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 ||
          !S_ISREG(info.st_mode)) {
        continue;
      }
      Loose loose;
      const std::string hex = std::string(folder_name) + std::string(name);
      if (git_oid_fromstrn(&loose.id, hex.data(), hex.size()) != 0) {
        continue;
      }
      loose.bytes = static_cast<std::uint64_t>(info.st_size);
      found.push_back(loose);
    }
    ::closedir(dir);
  }
  return found;
}

// The folder of the repository's objects, or nullopt (why in `error`).
std::optional<fs::path> objects_folder(git_repository* repository) {
  git_buf folder = GIT_BUF_INIT;
  if (git_repository_item_path(&folder, repository, GIT_REPOSITORY_ITEM_OBJECTS) != 0) {
    return std::nullopt;
  }
  fs::path objects = folder.ptr;
  git_buf_dispose(&folder);
  return objects;
}

Expected<RepositoryHandle, std::string> open_at(const fs::path& store) {
  detail::ensure_library();
  git_repository* repository = nullptr;
  if (git_repository_open_ext(&repository, store.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) !=
      0) {
    return unexpected(detail::last_error(fmt::format("cannot open git repository {}", store.string())));
  }
  return RepositoryHandle(repository);
}

std::uint64_t size_of(const fs::path& file) {
  std::error_code error;
  const auto size = fs::file_size(file, error);
  return error ? 0 : static_cast<std::uint64_t>(size);
}

} // namespace

LooseObjects count_loose_objects(const fs::path& store) {
  auto repository = open_at(store);
  if (!repository) {
    return {};
  }
  const auto objects = objects_folder(repository->get());
  if (!objects) {
    return {};
  }
  LooseObjects counted;
  for (const auto& loose : list_loose(*objects)) {
    ++counted.count;
    counted.bytes += loose.bytes;
  }
  return counted;
}

Expected<Packed, std::string> pack_loose_objects(const fs::path& store) {
  auto repository = open_at(store);
  if (!repository) {
    return unexpected(std::move(repository.error()));
  }
  git_repository* handle = repository->get();
  const fs::path gitdir = git_repository_commondir(handle);
  const auto objects = objects_folder(handle);
  if (!objects) {
    return unexpected(detail::last_error("cannot find the repository's objects"));
  }

  // One packer at a time: held until this returns, released by the kernel
  // should the process die.
  const fs::path lock_path = gitdir / k_packing_lock;
  const int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0) {
    return unexpected(fmt::format("cannot create {}: {}", lock_path.string(), std::strerror(errno)));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{lock};
  if (::flock(lock, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      Packed busy;
      busy.busy = true;
      return busy;
    }
    return unexpected(fmt::format("cannot lock {}: {}", lock_path.string(), std::strerror(errno)));
  }

  Packed packed;
  const std::vector<Loose> loose = list_loose(*objects);
  if (loose.empty()) {
    return packed;
  }
  fault_point("packing-listed");
  Packbuilder builder;
  if (git_packbuilder_new(&builder.pointer, handle) != 0) {
    return unexpected(detail::last_error("cannot start a pack"));
  }
  // One thread: packing is upkeep, and the machine's other core is the
  // agent's (and the daemon's next commit's).
  git_packbuilder_set_threads(builder.pointer, 1);
  std::vector<const Loose*> inserted;
  inserted.reserve(loose.size());
  for (const auto& object : loose) {
    if (git_packbuilder_insert(builder.pointer, &object.id, nullptr) != 0) {
      ++packed.left; // unreadable (cut short, corrupt): left for `git fsck` to name
      continue;
    }
    inserted.push_back(&object);
  }
  if (inserted.empty()) {
    return packed;
  }
  detail::fresh_errors();
  const fs::path pack_folder = *objects / "pack";
  if (git_packbuilder_write(builder.pointer, pack_folder.c_str(), 0, nullptr, nullptr) != 0) {
    return unexpected(detail::last_error("cannot write the pack"));
  }
  const std::string name = fmt::format("pack-{}", git_packbuilder_name(builder.pointer));
  const fs::path pack_file = pack_folder / (name + ".pack");
  const fs::path index_file = pack_folder / (name + ".idx");
  // The pack durable before any loose copy goes.
  if (auto failed = sync_file_system(gitdir)) {
    return unexpected(fmt::format("cannot flush the new pack {}: {}", pack_file.string(), *failed));
  }
  // Read back from the pack alone: each object removed below is in it.
  OdbBackend in_pack;
  if (git_odb_backend_one_pack(&in_pack.pointer, index_file.c_str()) != 0) {
    return unexpected(detail::last_error(fmt::format("cannot read the new pack {}", pack_file.string())));
  }
  fault_point("packing-written");
  for (const Loose* object : inserted) {
    if (in_pack.pointer->exists(in_pack.pointer, &object->id) == 0) {
      ++packed.left;
      continue;
    }
    const std::string hex = detail::to_hex(object->id);
    const fs::path file = *objects / hex.substr(0, 2) / hex.substr(2);
    if (::unlink(file.c_str()) == 0 || errno == ENOENT) {
      ++packed.objects;
      packed.loose_bytes += object->bytes;
      if (packed.objects == 1) {
        fault_point("packing-removing");
      }
    }
  }
  // Folders left empty stay: a commit may be about to write into one
  // (`git prune-packed` removes them, and git's writers make them again).
  packed.pack_bytes = size_of(pack_file) + size_of(index_file);
  packed.pack = (fs::path("objects") / "pack" / (name + ".pack")).string();
  return packed;
}

} // namespace engram::git
