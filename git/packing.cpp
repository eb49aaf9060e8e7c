// Packing: loose objects into one pack (see packing.hpp).
#include "git/packing.hpp"

#include "base/fault.hpp"
#include "git/libgit2.hpp"
#include "git/run_git.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <iterator>
#include <map>
#include <optional>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace engram::git {

namespace {

namespace fs = std::filesystem;

// The name of the file a packer holds with flock while it works. Not a
// `.lock` file: those are git's, and engram waits a git command's out.
constexpr const char* k_packing_lock = "engram-packing";

// The niceness of git's repack: upkeep, behind whatever the user runs.
constexpr int k_niceness = 10;

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
  const std::string folder_name = fmt::format("{:02x}", folder);
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
    const std::string hex = folder_name + std::string(name);
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

std::uint64_t size_of(const fs::path& file) {
  std::error_code error;
  const auto size = fs::file_size(file, error);
  return error ? 0 : static_cast<std::uint64_t>(size);
}

// What `objects`/pack holds: every name in it, each .pack with its size and
// its index's (anything else, a temporary, with 0).
using PackFolder = std::map<std::string, std::uint64_t>;

PackFolder pack_folder(const fs::path& objects) {
  PackFolder names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(objects / "pack", error)) {
    const bool pack = entry.path().extension() == ".pack";
    names[entry.path().filename().string()] =
        pack ? size_of(entry.path()) + size_of(fs::path(entry.path()).replace_extension(".idx"))
             : 0;
  }
  return names;
}

bool is_pack(const std::string& name) {
  return name.ends_with(".pack");
}

// Runs git's own repack on the repository at `gitdir` at low priority and
// waits for it, telling `progress` (when set) of git's. The reason when it
// failed, in git's words (often that the disk is full).
std::optional<std::string> run_repack(const fs::path& gitdir, const GitProgress& progress) {
  std::vector<std::string> args{"repack", "-d", "-l", "--geometric=2"};
  if (!progress) {
    args.emplace_back("-q"); // git says nothing but its errors
  }
  const auto outcome = run_git(
      {.gitdir = gitdir, .args = std::move(args), .niceness = k_niceness, .progress = progress});
  if (outcome.ok) {
    return std::nullopt;
  }
  return fmt::format("git repack failed: {}", outcome.said.empty() ? "no message" : outcome.said);
}

// Removes what a failed repack left in `objects`/pack: the temporary files
// that were not there before it (`before`, the folder's names then).
void remove_leftovers(const fs::path& objects, const PackFolder& before) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(objects / "pack", error)) {
    const std::string name = entry.path().filename().string();
    if ((name.starts_with("tmp_") || name.starts_with(".tmp-")) && !before.contains(name)) {
      fs::remove(entry.path(), error);
    }
  }
}

// What a repack did, from the loose objects and packs before and after it.
Packed compare(std::vector<Loose> before, std::vector<Loose> after, const PackFolder& packs_before,
               const PackFolder& packs_after) {
  const auto less = [](const Loose& a, const Loose& b) { return git_oid_cmp(&a.id, &b.id) < 0; };
  std::sort(before.begin(), before.end(), less);
  std::sort(after.begin(), after.end(), less);
  std::vector<Loose> stayed;
  std::set_intersection(before.begin(), before.end(), after.begin(), after.end(),
                        std::back_inserter(stayed), less);
  Packed packed;
  packed.left = stayed.size();
  packed.objects = before.size() - stayed.size();
  for (const auto& object : before) {
    packed.loose_bytes += object.bytes;
  }
  for (const auto& object : stayed) {
    packed.loose_bytes -= object.bytes;
  }
  for (const auto& [name, bytes] : packs_before) {
    packed.merged_packs += is_pack(name) && !packs_after.contains(name) ? 1 : 0;
  }
  for (const auto& [name, bytes] : packs_after) {
    if (is_pack(name) && !packs_before.contains(name)) {
      packed.pack = "objects/pack/" + name;
      packed.pack_bytes = bytes;
    }
  }
  return packed;
}

// A file descriptor closed when it goes.
struct Closer {
  int fd;
  ~Closer() { ::close(fd); }
};

} // namespace

std::optional<LooseObjects> loose_objects_if_near(const fs::path& store, std::uint64_t limit) {
  auto repository = Repository::open(store);
  if (!repository) {
    return LooseObjects{};
  }
  const auto objects = detail::objects_folder(repository->handle());
  if (!objects) {
    return LooseObjects{};
  }
  // Ids are spread evenly over the folders: the first folders, until they
  // hold enough objects to go by, tell the whole to within a few tens of
  // percent, as `git gc --auto` estimates from objects/17 alone. Looking at
  // each of a store's thousands of objects, a system call each, would be
  // most of what a small `engram consolidate` costs.
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

Expected<Packed, std::string> pack_loose_objects(const fs::path& store,
                                                 const GitProgress& progress) {
  auto repository = Repository::open(store);
  if (!repository) {
    return unexpected(std::move(repository.error()));
  }
  const fs::path gitdir = git_repository_commondir(repository->handle());
  const auto objects = detail::objects_folder(repository->handle());
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
  const Closer closer{.fd = lock};
  if (::flock(lock, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      Packed busy;
      busy.busy = true;
      return busy;
    }
    return unexpected(fmt::format("cannot lock {}: {}", lock_path.string(), std::strerror(errno)));
  }
  const auto loose_before = list_loose(*objects);
  const auto packs_before = pack_folder(*objects);
  if (loose_before.empty()) {
    return Packed{};
  }
  fault_point("packing-listed");
  if (auto failed = run_repack(gitdir, progress)) {
    remove_leftovers(*objects, packs_before);
    return unexpected(std::move(*failed));
  }
  fault_point("packing-repacked");
  return compare(loose_before, list_loose(*objects), packs_before, pack_folder(*objects));
}

} // namespace engram::git
