// The commands and options of the real engram as its --help lists them:
// `engram --help`, then each listed command's --help, read as people read
// them. Tests compare the man page and completions against this, so neither
// is checked against the code that wrote it.
#pragma once

#include "lib/process.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace engram::test {

// One command as its --help shows it.
struct HelpCommand {
  std::vector<std::string> path;        // {"config", "show"}; empty for engram
  std::vector<std::string> options;     // every option name: "-n", "--max-count"
  std::vector<std::string> subcommands; // the names under "Subcommands:"
};

// The option names and subcommands one --help text lists.
inline HelpCommand parse_help(const std::string& help) {
  HelpCommand command;
  std::istringstream lines(help);
  std::string section;
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.front() != ' ') {
      section = line;
      continue;
    }
    // An entry starts two spaces in; its description may go on under it, further in.
    if (line.size() < 3 || line[2] == ' ') {
      continue;
    }
    const std::string first = line.substr(2, line.find(' ', 2) - 2);
    if (section == "Subcommands:") {
      command.subcommands.push_back(first);
    } else if (section == "Options:") {
      std::istringstream names(first);
      for (std::string name; std::getline(names, name, ',');) {
        command.options.push_back(name);
      }
    }
  }
  return command;
}

// Every command under `path`, read from the --help of each, parents first.
inline std::vector<HelpCommand> help_tree(const Sandbox& sandbox,
                                          const std::vector<std::string>& path = {}) {
  // Not Sandbox::engram, which takes `consolidate --help` for a run to check.
  std::vector<std::string> args{ENGRAM_BINARY};
  args.insert(args.end(), path.begin(), path.end());
  args.push_back("--help");
  const auto help = run(args, sandbox.engram_environment());
  if (help.exit_code != 0) {
    throw std::runtime_error("engram --help failed: " + help.err);
  }
  std::vector<HelpCommand> tree{parse_help(help.out)};
  tree.front().path = path;
  for (const auto& name : std::vector<std::string>(tree.front().subcommands)) {
    auto sub_path = path;
    sub_path.push_back(name);
    const auto subtree = help_tree(sandbox, sub_path);
    tree.insert(tree.end(), subtree.begin(), subtree.end());
  }
  return tree;
}

// "engram config show".
inline std::string full_name(const HelpCommand& command) {
  std::string name = "engram";
  for (const auto& word : command.path) {
    name += " " + word;
  }
  return name;
}

} // namespace engram::test
