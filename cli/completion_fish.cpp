// The fish completion script (see completion.hpp): a function that finds
// the command the words so far name, and a `complete` line per command,
// subcommand and option, each offered only under its command.
#include "cli/completion.hpp"

#include <fmt/format.h>

namespace engram::cli {

namespace {

// `text` in fish's single quotes, where a backslash escapes a quote or itself.
std::string quote(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out + "'";
}

// The words before the cursor name a command: a word that names a subcommand
// of the command so far extends it; an option that takes a value consumes
// the next word. The options that take one are listed by the caller.
constexpr const char* k_fish_walker = R"fish(
function __engram_command --description 'The engram command the words so far name'
    set -l words (commandline -opc)
    set -e words[1]
    set -l command ''
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        if contains -- "$command|$word" $__engram_valued
            set skip 1
        else if contains -- "$command|$word" $__engram_subcommands
            set command (string trim -- "$command $word")
        end
    end
    echo $command
end

function __engram_at --description 'True when the words so far name the engram command $argv'
    test (__engram_command) = "$argv"
end

complete -c engram -f
)fish";

// How fish offers a value of this kind, as `complete` arguments.
std::string offer(const OptionInfo& option) {
  switch (option.kind) {
  case ValueKind::file:
  case ValueKind::path:
    return " -r -F";
  case ValueKind::directory:
    return " -x -a '(__fish_complete_directories)'";
  case ValueKind::choice:
    return fmt::format(" -x -a {}", quote(fmt::format("{}", fmt::join(option.choices, " "))));
  case ValueKind::text:
    return " -x";
  case ValueKind::none:
    break;
  }
  return "";
}

// One option's `complete` line, under its command.
std::string option_line(const CommandInfo& command, const OptionInfo& option) {
  std::string line =
      fmt::format("complete -c engram -n {}",
                  quote(fmt::format("__engram_at {}", fmt::join(command.path, " "))));
  for (const auto& name : option.names) {
    line += name.size() == 2 ? " -s " + name.substr(1) : " -l " + name.substr(2);
  }
  return line + offer(option) + " -d " + quote(summary(option.description)) + "\n";
}

// The `complete` lines of one command: its subcommands, options and arguments.
std::string command_lines(const CommandInfo& command) {
  const std::string at = quote(fmt::format("__engram_at {}", fmt::join(command.path, " ")));
  std::string out;
  for (const auto& sub : command.subcommands) {
    out += fmt::format("complete -c engram -n {} -a {} -d {}\n", at, sub.path.back(),
                       quote(summary(sub.description)));
  }
  for (const auto& option : command.options) {
    out += option_line(command, option);
  }
  for (const auto& argument : command.arguments) {
    if (argument.kind == ValueKind::file || argument.kind == ValueKind::path) {
      out += fmt::format("complete -c engram -n {} -F\n", at);
      break;
    }
  }
  return out;
}

} // namespace

std::string fish_completion(const CommandInfo& root) {
  const auto commands = flatten(root);
  std::vector<std::string> valued;
  std::vector<std::string> subcommands;
  for (const CommandInfo* command : commands) {
    const std::string path = fmt::format("{}", fmt::join(command->path, " "));
    for (const auto& option : command->options) {
      for (const auto& name : option.names) {
        if (takes_value(option)) {
          valued.push_back(quote(fmt::format("{}|{}", path, name)));
        }
      }
    }
    for (const auto& sub : command->subcommands) {
      subcommands.push_back(quote(fmt::format("{}|{}", path, sub.path.back())));
    }
  }
  std::string out = fmt::format(
      "# fish completion for engram, written by `engram completion fish` from its command\n"
      "# line, so it offers exactly the commands and options engram accepts.\n\n"
      "# `command|option` for each option that takes a value, `command|name` for each "
      "subcommand.\nset -g __engram_valued {}\nset -g __engram_subcommands {}\n",
      fmt::join(valued, " "), fmt::join(subcommands, " "));
  out += k_fish_walker;
  for (const CommandInfo* command : commands) {
    out += command_lines(*command);
  }
  return out;
}

} // namespace engram::cli
