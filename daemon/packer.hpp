// Packer: the daemon's upkeep of a store's repository. Each commit adds loose
// objects — on a large store a one-file change writes a large tree —
// and a daemon left running would fill the disk with them. When a store goes
// quiet, the packer looks at them on a helper thread and, once they pass the
// store's `git.pack_loose_bytes`, packs them (git/packing.hpp).
#pragma once

#include "config/config.hpp"

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

namespace engram::daemon {

class Packer {
public:
  Packer() = default;
  Packer(const Packer&) = delete;
  Packer& operator=(const Packer&) = delete;
  // Waits for a packing under way: libgit2's packbuilder cannot be stopped
  // midway, and a packing cut short by a kill loses nothing either.
  ~Packer();

  // Counts the loose objects of the store at `root` (logged as `name`) on the
  // helper thread, and packs them when they take more than its settings'
  // `git.pack_loose_bytes`. Does nothing when that is 0 (never) or while a
  // store is being looked at or packed already: the next quiet spell looks again.
  void consider(const std::filesystem::path& root, const std::string& name,
                const config::Settings& settings);

private:
  std::mutex m_mutex;
  bool m_busy = false; // under m_mutex
  std::jthread m_helper;
};

} // namespace engram::daemon
