// The bash completion script (see completion.hpp). Its tables are written
// from the App tree; the function that reads them is the same for any tree.
#include "cli/completion.hpp"

#include <fmt/format.h>

namespace engram::cli {

namespace {

// The part of the script that does not depend on the tree. It walks the
// words before the cursor: a word that names a subcommand of the command so
// far extends it, an option that takes a value consumes the next word. It
// needs nothing from the bash-completion package.
constexpr const char* k_bash_walker = R"sh(
# Adds to COMPREPLY what a value of kind $1 may be, starting with $2.
_engram_offer() {
  local IFS=$'\n'
  case "$1" in
  file | path)
    compopt -o filenames 2>/dev/null
    COMPREPLY+=($(compgen -f -- "$2"))
    ;;
  dir)
    compopt -o filenames 2>/dev/null
    COMPREPLY+=($(compgen -d -- "$2"))
    ;;
  choice\ *)
    IFS=$' \t\n'
    COMPREPLY+=($(compgen -W "${1#choice }" -- "$2"))
    ;;
  esac
}

_engram() {
  local cur=${COMP_WORDS[COMP_CWORD]} command="" expect="" word i
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ -n $expect ]]; then
      expect=""
    elif [[ $word == -* ]]; then
      expect=$(_engram_value "$command" "$word")
    elif [[ " $(_engram_commands "$command") " == *" $word "* ]]; then
      command=${command:+$command }$word
    fi
  done
  if [[ -n $expect ]]; then
    _engram_offer "$expect" "$cur"
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_engram_options "$command")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_engram_commands "$command")" -- "$cur"))
    _engram_offer "$(_engram_arguments "$command")" "$cur"
  fi
}

complete -F _engram engram
)sh";

// What the script calls a kind of value.
std::string kind_word(const OptionInfo& option) {
  switch (option.kind) {
  case ValueKind::none:
    return "";
  case ValueKind::file:
    return "file";
  case ValueKind::directory:
    return "dir";
  case ValueKind::path:
    return "path";
  case ValueKind::choice:
    return fmt::format("choice {}", fmt::join(option.choices, " "));
  case ValueKind::text:
    return "text";
  }
  return "";
}

// The case label of a command: its words joined by spaces, quoted.
std::string label(const CommandInfo& command) {
  return fmt::format("\"{}\"", fmt::join(command.path, " "));
}

// `_engram_commands` and `_engram_options`: a command's subcommands and options.
std::string names_tables(const std::vector<const CommandInfo*>& commands) {
  std::string subcommands;
  std::string options;
  for (const CommandInfo* command : commands) {
    std::vector<std::string> names;
    for (const auto& sub : command->subcommands) {
      names.push_back(sub.path.back());
    }
    if (!names.empty()) {
      subcommands += fmt::format("  {}) echo '{}' ;;\n", label(*command), fmt::join(names, " "));
    }
    names.clear();
    for (const auto& option : command->options) {
      names.insert(names.end(), option.names.begin(), option.names.end());
    }
    options += fmt::format("  {}) echo '{}' ;;\n", label(*command), fmt::join(names, " "));
  }
  return fmt::format("\n# The subcommands of the command $1 names (\"\" for engram itself).\n"
                     "_engram_commands() {{\n  case \"$1\" in\n{}  esac\n}}\n"
                     "\n# The options of the command $1 names.\n"
                     "_engram_options() {{\n  case \"$1\" in\n{}  esac\n}}\n",
                     subcommands, options);
}

// `_engram_value` and `_engram_arguments`: what an option's value and a
// command's arguments are (nothing for a flag).
std::string kinds_tables(const std::vector<const CommandInfo*>& commands) {
  std::string values;
  std::string arguments;
  for (const CommandInfo* command : commands) {
    const std::string path = fmt::format("{}", fmt::join(command->path, " "));
    for (const auto& option : command->options) {
      if (!takes_value(option)) {
        continue;
      }
      std::vector<std::string> labels;
      for (const auto& name : option.names) {
        labels.push_back(fmt::format("\"{}|{}\"", path, name));
      }
      values += fmt::format("  {}) echo '{}' ;;\n", fmt::join(labels, " | "), kind_word(option));
    }
    for (const auto& argument : command->arguments) {
      if (argument.kind == ValueKind::file || argument.kind == ValueKind::directory ||
          argument.kind == ValueKind::path) {
        arguments += fmt::format("  {}) echo '{}' ;;\n", label(*command), kind_word(argument));
        break;
      }
    }
  }
  return fmt::format("\n# What the value of option $2 of command $1 is: file, dir, path, text or\n"
                     "# `choice` and the values allowed; nothing for a flag.\n"
                     "_engram_value() {{\n  case \"$1|$2\" in\n{}  esac\n}}\n"
                     "\n# What the arguments of command $1 name, when they name files.\n"
                     "_engram_arguments() {{\n  case \"$1\" in\n{}  esac\n}}\n",
                     values, arguments);
}

} // namespace

std::string bash_completion(const CommandInfo& root) {
  const auto commands = flatten(root);
  return "# bash completion for engram, written by `engram completion bash` from its command\n"
         "# line, so it offers exactly the commands and options engram accepts.\n" +
         names_tables(commands) + kinds_tables(commands) + k_bash_walker;
}

} // namespace engram::cli
