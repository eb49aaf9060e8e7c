// Rule plugins for a command: the built-in rules first, then every folder the
// configuration's `plugins.dirs` names, loaded the same way.
#pragma once

#include "config/config.hpp"
#include "plugins/host.hpp"

#include <filesystem>
#include <vector>

namespace engram::cli {

// The folders rules are loaded from, in order: the built-in rule folder, then
// each of `plugins.dirs` (a relative one is taken from the configuration file's folder).
std::vector<std::filesystem::path> rule_folders(const config::Config& config);

// Loads every folder of rule_folders(config) into `host`; refusals are kept in the host.
void load_rule_plugins(plugins::Host& host, const config::Config& config);

} // namespace engram::cli
