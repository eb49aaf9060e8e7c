// Packing: loose objects into one pack (see packing.hpp).
#include "git/packing.hpp"

#include "base/durability.hpp"
#include "base/fault.hpp"
#include "git/libgit2.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <git2/odb_backend.h>
#include <git2/sys/odb_backend.h>
#include <memory>
#include <optional>
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
void free_backend(git_odb_backend* backend) {
  backend->free(backend);
}
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

// The loose objects of the folder `objects`/XX numbered `folder`, appended
// to `found`; temporaries and anything else are not objects and are skipped.
void list_loose_folder(const fs::path& objects, int folder, std::vector<Loose>& found) {
  char folder_name[3] = {};
  std::snprintf(folder_name, sizeof folder_name, "%02x", folder);
  const fs::path path = objects / folder_name;
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) {
    return; // no object there yet
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

// Git's objects/XX folders, one per first byte of an id.
constexpr int k_folders = 256;

// Every loose object under `objects` (its XX/ folders).
std::vector<Loose> list_loose(const fs::path& objects) {
  std::vector<Loose> found;
  for (int folder = 0; folder < k_folders; ++folder) {
    list_loose_folder(objects, folder, found);
  }
  return found;
}

Expected<RepositoryHandle, std::string> open_at(const fs::path& store) {
  detail::ensure_library();
  git_repository* repository = nullptr;
  if (git_repository_open_ext(&repository, store.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) !=
      0) {
    return unexpected(
        detail::last_error(fmt::format("cannot open git repository {}", store.string())));
  }
  return RepositoryHandle(repository);
}

std::uint64_t size_of(const fs::path& file) {
  std::error_code error;
  const auto size = fs::file_size(file, error);
  return error ? 0 : static_cast<std::uint64_t>(size);
}

// One pack in objects/pack: its two files and the pack's size.
struct PackFiles {
  fs::path pack;
  fs::path index;
  std::uint64_t bytes = 0;
};

// The packs a merge may take, smallest first: each .pack with its .idx, and
// none git marks as special: a .keep (no repack may touch it), a .promisor
// (a partial clone's) or a .mtimes (a cruft pack of unreachable objects,
// which `git gc` expires by those times).
std::vector<PackFiles> mergeable_packs(const fs::path& pack_folder) {
  std::vector<PackFiles> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(pack_folder, error)) {
    const fs::path& path = entry.path();
    if (path.extension() != ".pack" || !path.filename().string().starts_with("pack-")) {
      continue;
    }
    PackFiles pack{path, fs::path(path).replace_extension(".idx"), size_of(path)};
    const auto marked = [&](const char* extension) {
      return fs::exists(fs::path(path).replace_extension(extension), error);
    };
    if (fs::exists(pack.index, error) && !marked(".keep") && !marked(".promisor") &&
        !marked(".mtimes")) {
      found.push_back(std::move(pack));
    }
  }
  std::sort(found.begin(), found.end(), [](const PackFiles& a, const PackFiles& b) {
    return a.bytes != b.bytes ? a.bytes < b.bytes : a.pack < b.pack;
  });
  return found;
}

// A packbuilder for upkeep: one thread, since the machine's other core is
// the agent's (and the daemon's next commit's).
Expected<std::unique_ptr<Packbuilder>, std::string> start_pack(git_repository* repository) {
  auto builder = std::make_unique<Packbuilder>();
  if (git_packbuilder_new(&builder->pointer, repository) != 0) {
    return unexpected(detail::last_error("cannot start a pack"));
  }
  git_packbuilder_set_threads(builder->pointer, 1);
  return builder;
}

// Writes what `builder` holds as a new pack in objects/pack and flushes it;
// the pack's files, opened as a backend of their own to read back from.
Expected<std::pair<PackFiles, std::unique_ptr<OdbBackend>>, std::string>
write_pack(git_packbuilder* builder, const fs::path& objects, const fs::path& gitdir) {
  detail::fresh_errors();
  const fs::path pack_folder = objects / "pack";
  if (git_packbuilder_write(builder, pack_folder.c_str(), 0, nullptr, nullptr) != 0) {
    return unexpected(detail::last_error("cannot write the pack"));
  }
  const std::string name = fmt::format("pack-{}", git_packbuilder_name(builder));
  PackFiles written{pack_folder / (name + ".pack"), pack_folder / (name + ".idx"), 0};
  written.bytes = size_of(written.pack) + size_of(written.index);
  // The pack durable before anything it holds is removed elsewhere.
  if (auto failed = sync_file_system(gitdir)) {
    return unexpected(
        fmt::format("cannot flush the new pack {}: {}", written.pack.string(), *failed));
  }
  auto backend = std::make_unique<OdbBackend>();
  if (git_odb_backend_one_pack(&backend->pointer, written.index.c_str()) != 0) {
    return unexpected(
        detail::last_error(fmt::format("cannot read the new pack {}", written.pack.string())));
  }
  return std::pair{std::move(written), std::move(backend)};
}

// Packs the loose objects and removes each loose copy the new pack holds.
std::optional<std::string> pack_loose(git_repository* repository, const fs::path& objects,
                                      const fs::path& gitdir, Packed& packed) {
  const std::vector<Loose> loose = list_loose(objects);
  if (loose.empty()) {
    return std::nullopt;
  }
  fault_point("packing-listed");
  auto builder = start_pack(repository);
  if (!builder) {
    return std::move(builder.error());
  }
  Owned<git_odb, git_odb_free> odb;
  if (git_repository_odb(&odb.pointer, repository) != 0) {
    return detail::last_error("cannot open the object database");
  }
  std::vector<const Loose*> inserted;
  inserted.reserve(loose.size());
  for (const auto& object : loose) {
    // Read whole first, its id checked against its bytes: the packbuilder
    // reads only the header here, and one object cut short further on
    // would fail the whole pack, every time.
    git_odb_object* read = nullptr;
    const bool readable = git_odb_read(&read, odb.pointer, &object.id) == 0;
    git_odb_object_free(read);
    if (!readable || git_packbuilder_insert((*builder)->pointer, &object.id, nullptr) != 0) {
      ++packed.left; // unreadable (cut short, corrupt): left for `git fsck` to name
      continue;
    }
    inserted.push_back(&object);
  }
  if (inserted.empty()) {
    return std::nullopt;
  }
  auto written = write_pack((*builder)->pointer, objects, gitdir);
  if (!written) {
    return std::move(written.error());
  }
  git_odb_backend* in_pack = written->second->pointer;
  fault_point("packing-written");
  for (const Loose* object : inserted) {
    if (in_pack->exists(in_pack, &object->id) == 0) {
      ++packed.left;
      continue;
    }
    const std::string hex = detail::to_hex(object->id);
    const fs::path file = objects / hex.substr(0, 2) / hex.substr(2);
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
  packed.pack_bytes = written->first.bytes;
  packed.pack = fs::relative(written->first.pack, gitdir).string();
  return std::nullopt;
}

// Merges the small packs, as geometric_split picks them, into one; each old
// pack is removed only once the new one holds every object it held.
std::optional<std::string> merge_packs(git_repository* repository, const fs::path& objects,
                                       const fs::path& gitdir, Packed& packed) {
  const std::vector<PackFiles> packs = mergeable_packs(objects / "pack");
  std::vector<std::uint64_t> sizes;
  for (const auto& pack : packs) {
    sizes.push_back(pack.bytes);
  }
  const std::size_t merging = geometric_split(sizes);
  if (merging == 0) {
    return std::nullopt;
  }
  auto builder = start_pack(repository);
  if (!builder) {
    return std::move(builder.error());
  }
  struct Listing {
    git_packbuilder* builder;
    std::vector<git_oid> ids;
  } listing{(*builder)->pointer, {}};
  for (std::size_t i = 0; i < merging; ++i) {
    OdbBackend old;
    if (git_odb_backend_one_pack(&old.pointer, packs[i].index.c_str()) != 0 ||
        old.pointer->foreach (
            old.pointer,
            [](const git_oid* id, void* payload) {
              auto* into = static_cast<Listing*>(payload);
              into->ids.push_back(*id);
              return git_packbuilder_insert(into->builder, id, nullptr);
            },
            &listing) != 0) {
      // A pack that cannot be read whole is left as it is, and every other with it.
      return std::optional<std::string>(detail::last_error(
          fmt::format("cannot read the pack {} to merge it", packs[i].pack.string())));
    }
  }
  auto written = write_pack((*builder)->pointer, objects, gitdir);
  if (!written) {
    return std::move(written.error());
  }
  git_odb_backend* merged = written->second->pointer;
  for (const auto& id : listing.ids) {
    if (merged->exists(merged, &id) == 0) {
      return std::optional<std::string>(
          fmt::format("the merged pack {} lacks {}; the packs stay as they are",
                      written->first.pack.string(), detail::to_hex(id)));
    }
  }
  fault_point("packing-merged");
  for (std::size_t i = 0; i < merging; ++i) {
    if (packs[i].pack == written->first.pack) {
      continue; // the same objects made the same pack
    }
    // The index first: a reader that finds no index never opens the pack.
    std::error_code ignored;
    fs::remove(packs[i].index, ignored);
    fs::remove(packs[i].pack, ignored);
    for (const char* extension : {".rev", ".bitmap"}) {
      fs::remove(fs::path(packs[i].pack).replace_extension(extension), ignored);
    }
  }
  packed.merged_packs = merging;
  packed.pack = fs::relative(written->first.pack, gitdir).string();
  packed.pack_bytes = written->first.bytes;
  return std::nullopt;
}

} // namespace

std::optional<LooseObjects> loose_objects_if_near(const fs::path& store, std::uint64_t limit) {
  auto repository = open_at(store);
  if (!repository) {
    return LooseObjects{};
  }
  const auto objects = detail::objects_folder(repository->get());
  if (!objects) {
    return LooseObjects{};
  }
  // Ids are spread evenly over the folders: the first folders, until they
  // hold enough objects to go by, tell the whole to within a few tens of
  // percent, as `git gc --auto` estimates from objects/17 alone. Looking at
  // each of a store's thousands of objects (a system call each, 10-20 µs
  // here) took 60 ms of every `engram consolidate`.
  constexpr std::size_t k_enough = 64;
  std::vector<Loose> found;
  int listed = 0; // folders read so far
  while (listed < k_folders && found.size() < k_enough) {
    list_loose_folder(*objects, listed++, found);
  }
  if (listed < k_folders) {
    std::uint64_t sampled = 0;
    for (const auto& object : found) {
      sampled += object.bytes;
    }
    if (sampled * k_folders / static_cast<std::uint64_t>(listed) < limit / 2) {
      return std::nullopt; // far below, even for a sample that is half what the whole is
    }
    while (listed < k_folders) { // near: the other folders, for the exact count
      list_loose_folder(*objects, listed++, found);
    }
  }
  LooseObjects counted;
  for (const auto& object : found) {
    ++counted.count;
    counted.bytes += object.bytes;
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
  const auto objects = detail::objects_folder(handle);
  if (!objects) {
    return unexpected(detail::last_error("cannot find the repository's objects"));
  }

  // One packer at a time: held until this returns, released by the kernel
  // should the process die.
  const fs::path lock_path = gitdir / k_packing_lock;
  const int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0) {
    return unexpected(
        fmt::format("cannot create {}: {}", lock_path.string(), std::strerror(errno)));
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
  if (auto failed = pack_loose(handle, *objects, gitdir, packed)) {
    return unexpected(std::move(*failed));
  }
  if (auto failed = merge_packs(handle, *objects, gitdir, packed)) {
    return unexpected(std::move(*failed));
  }
  return packed;
}

std::size_t geometric_split(const std::vector<std::uint64_t>& ascending) {
  constexpr std::uint64_t k_factor = 2;
  if (ascending.size() < 2) {
    return 0;
  }
  // From the largest down, the packs that already grow geometrically stay.
  std::size_t split = ascending.size() - 1;
  while (split > 0 && ascending[split] >= k_factor * ascending[split - 1]) {
    --split;
  }
  if (split == 0) {
    return 0;
  }
  // Those below the split are merged, and so is each pack above it that
  // is not twice their total: it would be merged next time anyway.
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < split; ++i) {
    total += ascending[i];
  }
  while (split < ascending.size() && ascending[split] < k_factor * total) {
    total += ascending[split];
    ++split;
  }
  return split < 2 ? 0 : split;
}

} // namespace engram::git
