// Detached packing (see detached_pack.hpp).
#include "cli/detached_pack.hpp"

#include "base/platform.hpp"
#include "git/packing.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <spawn.h>
#include <spdlog/spdlog.h>
#include <string>
#include <sys/resource.h>
#include <vector>

extern char** environ;

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
  std::vector<char*> argv;
  for (auto& arg : args) {
    argv.push_back(arg.data());
  }
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attributes);
  // Nothing of the command's: no terminal, no pipe a caller waits on to close.
  for (const int stream : {0, 1, 2}) {
    posix_spawn_file_actions_addopen(&actions, stream, "/dev/null",
                                     stream == 0 ? O_RDONLY : O_WRONLY, 0);
  }
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
  pid_t child = -1;
  const int spawned =
      ::posix_spawn(&child, binary.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    spdlog::warn("cannot start `engram pack` for the loose objects ({} bytes): {}", loose.bytes,
                 std::strerror(spawned));
    return;
  }
  (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(child), k_niceness);
  spdlog::debug("{} loose objects take {} bytes, over git.pack_loose_bytes: `engram pack` started "
                "(pid {})",
                loose.count, loose.bytes, child);
}

} // namespace engram::cli
