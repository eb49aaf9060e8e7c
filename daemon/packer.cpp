// Packer: loose objects packed off the worker (see packer.hpp).
#include "daemon/packer.hpp"

#include "daemon/log.hpp"
#include "git/packing.hpp"

#include <chrono>
#include <spdlog/spdlog.h>

namespace engram::daemon {

namespace {

double mib(std::uint64_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

// Looks at the store's loose objects and packs them when they are over `over` bytes.
void look_and_pack(const std::filesystem::path& root, std::uint64_t over) {
  const auto near = git::loose_objects_if_near(root, over);
  if (!near) {
    spdlog::debug("loose objects far from git.pack_loose_bytes ({:.1f} MiB), by a sample",
                  mib(over));
    return;
  }
  const auto& loose = *near;
  if (loose.bytes <= over) {
    spdlog::debug("{} loose objects take {:.1f} MiB, not over git.pack_loose_bytes ({:.1f} MiB)",
                  loose.count, mib(loose.bytes), mib(over));
    return;
  }
  const auto started = std::chrono::steady_clock::now();
  const auto packed = git::pack_loose_objects(root);
  const auto took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
  if (!packed) {
    spdlog::warn("cannot pack the loose objects ({:.1f} MiB): {}; the next quiet spell tries "
                 "again",
                 mib(loose.bytes), packed.error());
  } else if (packed->busy) {
    spdlog::info("another engram is packing the repository; not packed");
  } else {
    spdlog::info("packed {} loose objects ({:.1f} MiB) into {} ({:.1f} MiB), merging {} packs, "
                 "in {:.1f} s",
                 packed->objects, mib(packed->loose_bytes), packed->pack, mib(packed->pack_bytes),
                 packed->merged_packs, took.count());
    if (packed->left != 0) {
      spdlog::warn("{} loose objects could not be read and were left as they are; `git fsck` "
                   "names them",
                   packed->left);
    }
  }
}

} // namespace

Packer::~Packer() {
  const std::lock_guard lock(m_mutex);
  if (m_busy) {
    spdlog::info("waiting for the packing of loose objects to finish");
  }
  // m_helper joins.
}

void Packer::consider(const std::filesystem::path& root, const std::string& name,
                      const config::Settings& settings) {
  const auto over = static_cast<std::uint64_t>(settings.get_int("git.pack_loose_bytes"));
  if (over == 0) {
    return;
  }
  const std::lock_guard lock(m_mutex);
  if (m_busy) {
    return;
  }
  m_busy = true;
  if (m_helper.joinable()) {
    m_helper.join(); // done: m_busy was cleared as its last step
  }
  m_helper = std::jthread([this, root, name, over] {
    {
      const StoreLogScope scope(name);
      try {
        look_and_pack(root, over);
      } catch (const std::exception& error) {
        spdlog::warn("cannot pack the loose objects: {}", error.what());
      }
    }
    const std::lock_guard done(m_mutex);
    m_busy = false;
  });
}

} // namespace engram::daemon
