// Detached packing (see detached_pack.hpp).
#include "cli/detached_pack.hpp"

#include "base/child_process.hpp"
#include "base/platform.hpp"
#include "git/packing.hpp"

#include <filesystem>
#include <spdlog/spdlog.h>
#include <string>
#include <vector>

namespace engram::cli {

namespace {

namespace fs = std::filesystem;

// The niceness of the packing child: upkeep, behind whatever the user runs.
constexpr int k_niceness = 10;

} // namespace

void pack_detached_if_due(const Globals& globals, const SelectedStore& selected) {
  const auto over = static_cast<std::uint64_t>(selected.settings.get_int("git.pack_loose_bytes"));
  if (over == 0) {
    return;
  }
  const auto near = git::loose_objects_if_near(selected.root, over);
  if (!near || near->bytes <= over) {
    return;
  }
  const auto& loose = *near;
  const auto found = platform::executable_path();
  if (!found) {
    spdlog::warn("cannot pack the loose objects: cannot find engram's own binary");
    return;
  }
  const fs::path& binary = *found;
  std::vector<std::string> args{"engram"};
  if (globals.config_file) {
    args.insert(args.end(), {"--config", fs::absolute(*globals.config_file).string()});
  }
  args.insert(args.end(), {"pack", "--store", selected.root.string()});
  const auto child = start_detached(binary, std::move(args), k_niceness);
  if (!child) {
    spdlog::warn("cannot start `engram pack` for the loose objects ({} bytes): {}", loose.bytes,
                 child.error());
    return;
  }
  spdlog::debug("{} loose objects take {} bytes, over git.pack_loose_bytes: `engram pack` started "
                "(pid {})",
                loose.count, loose.bytes, *child);
}

} // namespace engram::cli
