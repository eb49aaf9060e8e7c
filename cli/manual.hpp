// The man pages, written from the definitions they document: engram(1) from
// the command line's App tree, engram.toml(5) from the configuration's key
// table. The build runs `engram manual` to write them (cmake/Docs.cmake).
#pragma once

#include "cli/command_tree.hpp"

#include <string>

namespace engram::cli {

// engram(1) in roff: every command with its options and arguments, the
// `--json` convention and the exit statuses.
std::string command_manual(const CommandInfo& root);

// engram.toml(5) in roff: every configuration key with its type, default and meaning.
std::string config_manual();

} // namespace engram::cli
