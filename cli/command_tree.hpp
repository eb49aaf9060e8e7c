// The command line as plain values: every command, subcommand, option and
// argument CLI11 was told about, read back from its App tree. The man page
// and the shell completions are written from this, so they say exactly what
// the parser accepts.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
} // namespace CLI

namespace engram::cli {

// What an option's value (or an argument) is, so a shell knows what to offer.
enum class ValueKind {
  none,      // a flag: no value
  file,      // a file (FILE)
  directory, // a folder (DIR)
  path,      // a file or a folder (PATH)
  choice,    // one of `choices`
  text,      // anything else: nothing to offer
};

// One option or positional argument.
struct OptionInfo {
  std::vector<std::string> names;   // "-n", "--max-count"; empty for an argument
  std::string value_name;           // "N", "PATH"; empty for a flag
  std::string description;          // its help text
  std::string default_value;        // shown in its help, or empty
  ValueKind kind = ValueKind::none; // what its value is
  std::vector<std::string> choices; // the values allowed, for ValueKind::choice
  bool required = false;            // must be given
  bool repeatable = false;          // may be given (or takes values) more than once
};

// One command: `engram` itself, or a subcommand at any depth.
struct CommandInfo {
  std::vector<std::string> path;        // {"config", "show"}; empty for `engram`
  std::string description;              // what it does
  std::vector<OptionInfo> options;      // its named options, --help included
  std::vector<OptionInfo> arguments;    // its positional arguments, in order
  std::vector<CommandInfo> subcommands; // its visible subcommands, in order
  bool needs_subcommand = false;        // does nothing without one

  // "engram config show".
  std::string full_name() const;
};

// The visible commands under `root` (hidden ones, in the empty group, are left out).
CommandInfo describe_commands(const CLI::App& root);

// Every command of the tree, parents before their subcommands.
std::vector<const CommandInfo*> flatten(const CommandInfo& root);

// True when the option takes a value (the word after it is not a command).
bool takes_value(const OptionInfo& option);

// The first sentence of a description, for a completion menu.
std::string summary(const std::string& description);

} // namespace engram::cli
