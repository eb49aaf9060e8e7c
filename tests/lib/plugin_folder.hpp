// A plugin folder for integration tests: copies of the built test plugins in
// a folder only its owner can write (or the host refuses it), and a
// configuration naming it.
#pragma once

#include "lib/process.hpp"
#include "lib/temp_dir.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace engram::test {

// The sandbox's `plugins` folder holding the named test plugins (`<name>.so`),
// and the path of a config.toml whose `plugins.dirs` names it.
inline std::filesystem::path plugin_config(const Sandbox& sandbox,
                                           const std::vector<std::string>& plugins) {
  namespace fs = std::filesystem;
  const fs::path folder = sandbox.work("plugins");
  fs::create_directories(folder);
  fs::permissions(folder, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
  for (const auto& name : plugins) {
    fs::copy_file(fs::path(ENGRAM_TEST_PLUGIN_DIR) / (name + ".so"), folder / (name + ".so"));
  }
  const fs::path config = sandbox.work("config.toml");
  write_file(config, "[plugins]\ndirs = [\"" + folder.string() + "\"]\n");
  return config;
}

} // namespace engram::test
