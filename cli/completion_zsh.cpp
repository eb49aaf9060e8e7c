// The zsh completion script (see completion.hpp): one function per command,
// each an `_arguments` call, in the way zsh's own completions are written.
#include "cli/completion.hpp"

#include <fmt/format.h>

namespace engram::cli {

namespace {

// `text` inside single quotes, which zsh takes literally but for a quote.
std::string escape_quote(std::string_view text) {
  std::string out;
  for (const char c : text) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out;
}

// A description inside an `_arguments` spec, where `[`, `]` and `:` mean something.
std::string spec_text(const std::string& description) {
  std::string out;
  for (const char c : summary(description)) {
    if (c == '[' || c == ']' || c == ':') {
      out += '\\';
    }
    out += c;
  }
  return escape_quote(out);
}

// The function of a command: `_engram_cmd_config_show`.
std::string function_name(const CommandInfo& command) {
  std::string name = "_engram_cmd";
  for (const auto& word : command.path) {
    name += "_" + word;
  }
  return name;
}

// What zsh offers for a value of this kind.
std::string action(const OptionInfo& option) {
  switch (option.kind) {
  case ValueKind::file:
  case ValueKind::path:
    return "_files";
  case ValueKind::directory:
    return "_files -/";
  case ValueKind::choice:
    return fmt::format("({})", fmt::join(option.choices, " "));
  case ValueKind::none:
  case ValueKind::text:
    break;
  }
  return " ";
}

// One option's specs: `'(-n --max-count)'{-n+,--max-count=}'[help]:N: '`.
std::string option_spec(const OptionInfo& option) {
  std::vector<std::string> names;
  for (const auto& name : option.names) {
    // `=` after a long name and `+` after a short one: the value may follow
    // in the same word, as CLI11 allows, or be the next word.
    names.push_back(takes_value(option) ? name + (name.size() == 2 ? "+" : "=") : name);
  }
  std::string spec =
      option.repeatable ? "'*'" : fmt::format("'({})'", fmt::join(option.names, " "));
  spec += names.size() == 1 ? names.front() : fmt::format("{{{}}}", fmt::join(names, ","));
  spec += fmt::format("'[{}]", spec_text(option.description));
  if (takes_value(option)) {
    spec += fmt::format(":{}:{}", escape_quote(option.value_name), escape_quote(action(option)));
  }
  return spec + "'";
}

// The positional arguments' specs: `'1:PATH:_files'`, `'*:PATH:_files'`.
std::vector<std::string> argument_specs(const CommandInfo& command) {
  std::vector<std::string> specs;
  for (std::size_t i = 0; i < command.arguments.size(); ++i) {
    const auto& argument = command.arguments[i];
    const std::string position = argument.repeatable ? "*" : std::to_string(i + 1);
    // `n::` marks an optional argument; after `*` a second colon means
    // something else (the words are narrowed), and `*` is optional anyway.
    const bool optional = !argument.required && !argument.repeatable;
    specs.push_back(fmt::format("'{}:{}{}:{}'", position, optional ? ":" : "",
                                escape_quote(argument.value_name), escape_quote(action(argument))));
  }
  return specs;
}

// A command's function: its options and arguments, then, for a command with
// subcommands, the subcommand's name and a call to the subcommand's function.
std::string command_function(const CommandInfo& command) {
  std::vector<std::string> specs;
  for (const auto& option : command.options) {
    specs.push_back(option_spec(option));
  }
  if (command.subcommands.empty()) {
    const auto arguments = argument_specs(command);
    specs.insert(specs.end(), arguments.begin(), arguments.end());
    return fmt::format("{}() {{\n  _arguments -s \\\n    {}\n}}\n\n", function_name(command),
                       fmt::join(specs, " \\\n    "));
  }
  std::string names;
  std::string calls;
  for (const auto& sub : command.subcommands) {
    names += fmt::format("\n    '{}:{}'", sub.path.back(), escape_quote(summary(sub.description)));
    calls += fmt::format("    {}) {} ;;\n", sub.path.back(), function_name(sub));
  }
  return fmt::format("{}() {{\n  local curcontext=$curcontext state line\n"
                     "  _arguments -s -C \\\n    {} \\\n    '1: :->command' \\\n"
                     "    '*:: :->argument' && return\n"
                     "  case $state in\n  command)\n    local -a commands=({}\n    )\n"
                     "    _describe -t commands '{} command' commands\n    ;;\n"
                     "  argument)\n    case $line[1] in\n{}    esac\n    ;;\n  esac\n}}\n\n",
                     function_name(command), fmt::join(specs, " \\\n    "), names,
                     command.full_name(), calls);
}

} // namespace

std::string zsh_completion(const CommandInfo& root) {
  std::string out = "#compdef engram\n"
                    "# zsh completion for engram, written by `engram completion zsh` from its\n"
                    "# command line, so it offers exactly the commands and options engram "
                    "accepts.\n\n";
  for (const CommandInfo* command : flatten(root)) {
    out += command_function(*command);
  }
  // Autoloaded from fpath, the file is the body of _engram; sourced, it
  // registers the function instead.
  out += "_engram() {\n  _engram_cmd \"$@\"\n}\n\n"
         "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n  _engram \"$@\"\nelse\n"
         "  compdef _engram engram\nfi\n";
  return out;
}

} // namespace engram::cli
