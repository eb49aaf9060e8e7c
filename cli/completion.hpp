// Shell completion scripts, written from the command line's App tree: each
// shell is offered exactly the commands and options the parser accepts, and
// files or folders where an option or argument names one.
#pragma once

#include "cli/command_tree.hpp"

#include <string>

namespace engram::cli {

// The bash script: a completion function for `engram`, registered with `complete`.
std::string bash_completion(const CommandInfo& root);

// The zsh script (`#compdef engram`), one `_arguments` function per command.
std::string zsh_completion(const CommandInfo& root);

// The fish script: one `complete -c engram` line per command and option.
std::string fish_completion(const CommandInfo& root);

} // namespace engram::cli
