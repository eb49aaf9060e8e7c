// engram(1): the command manual, written from the App tree (see manual.hpp).
#include "cli/app.hpp"
#include "cli/manual.hpp"
#include "cli/roff.hpp"
#include "daemon/service_files.hpp"
#include "engram_version.hpp"

#include <fmt/format.h>

namespace engram::cli {

namespace {

// The `--json` convention every command that has `--json` follows.
constexpr const char* k_json_convention[] = {
    "Every command takes --json but daemon (it runs in the foreground and logs) and hook (its "
    "standard output is the agent's hook protocol). With it, standard output holds exactly one "
    "JSON value and nothing else: an object, except for log and discover, which print an array of "
    "objects. Messages for people, logging (--log-level) and progress still go to standard error, "
    "and the exit status is the one the command has without --json.",
    "Keys are lowercase words joined by underscores; a later version may add keys, so a reader "
    "should ignore keys it does not know. A value that does not apply is null, never a missing "
    "key, and a list is an array even when it is empty. store is the store's absolute path; "
    "commits are full 40-character ids; sizes are in bytes.",
    "A problem in a file is an object with path, line, reason and severity: the path:line: reason "
    "of the text taken apart (the records of consolidate, health and the git notes keep that text "
    "as one string). A command that cannot do its work, or a command line engram cannot read, "
    "prints an object with error (why) and diagnostics (for instance each problem of a bad "
    "configuration file); where a command says why only on standard error, error says so.",
};

// The usage line of a command: its name, [OPTIONS], its arguments, COMMAND.
std::string usage(const CommandInfo& command) {
  std::string out = roff::bold(command.full_name()) + " [" + roff::italic("OPTIONS") + "]";
  for (const auto& argument : command.arguments) {
    const std::string name = roff::italic(argument.value_name) + (argument.repeatable ? "..." : "");
    out += argument.required ? " " + name : " [" + name + "]";
  }
  if (!command.subcommands.empty()) {
    out += " " + roff::italic("COMMAND");
  }
  return out;
}

// An option's tag: its names in bold, then its value's name in italics.
std::string option_tag(const OptionInfo& option) {
  std::string tag;
  for (const auto& name : option.names) {
    tag += (tag.empty() ? "" : ", ") + roff::bold(name);
  }
  if (tag.empty()) {
    return roff::italic(option.value_name);
  }
  return option.value_name.empty() ? tag : tag + " " + roff::italic(option.value_name);
}

// An option's description with what its help shows beside it: the allowed
// values, the default, whether it is required or may be repeated.
std::string option_body(const OptionInfo& option) {
  std::string body = option.description;
  if (!body.empty() && body.back() != '.') {
    body += '.'; // CLI11's help lists descriptions without one; here sentences follow
  }
  if (!option.choices.empty()) {
    body += " One of: " + fmt::format("{}", fmt::join(option.choices, ", ")) + ".";
  }
  if (!option.default_value.empty()) {
    body += " Default: " + option.default_value + ".";
  }
  if (option.required) {
    body += " Required.";
  }
  if (option.repeatable) {
    body += " May be given more than once.";
  }
  return body;
}

// One command's section: usage, description, subcommands, options, arguments.
std::string command_section(const CommandInfo& command) {
  std::string out = roff::subsection(command.full_name());
  out += usage(command) + "\n";
  out += roff::paragraph(command.description);
  if (!command.subcommands.empty()) {
    std::string names;
    for (const auto& sub : command.subcommands) {
      names += (names.empty() ? "" : ", ") + sub.path.back();
    }
    out += roff::paragraph(fmt::format("Its commands: {} (each below).", names));
  }
  for (const auto& argument : command.arguments) {
    out += roff::tagged(option_tag(argument), option_body(argument));
  }
  for (const auto& option : command.options) {
    out += roff::tagged(option_tag(option), option_body(option));
  }
  return out;
}

// The exit statuses, from the constants the commands return.
std::string exit_status() {
  std::string out = roff::section("EXIT STATUS");
  out += roff::tagged(roff::bold(fmt::format("{}", k_exit_ok)), "Success.");
  out += roff::tagged(roff::bold(fmt::format("{}", k_exit_problems)),
                      "Problems were found (diagnostics), or the command could not do its work.");
  out += roff::tagged(roff::bold(fmt::format("{}", k_exit_usage)),
                      "A usage or configuration error: nothing was done.");
  out += roff::tagged(roff::bold(fmt::format("{}", daemon::k_exit_nothing_to_keep)),
                      "engram daemon found no store to keep; its service unit does not restart "
                      "it for this status.");
  return out;
}

// What engram reads and where, and the pages to read next.
std::string files_and_see_also() {
  std::string out = roff::section("ENVIRONMENT");
  out += roff::tagged(roff::bold("XDG_CONFIG_HOME"),
                      "The configuration is $XDG_CONFIG_HOME/engram/config.toml "
                      "(~/.config/engram/config.toml when it is unset).");
  out +=
      roff::tagged(roff::bold("XDG_DATA_HOME"), "The default store is $XDG_DATA_HOME/engram/memory "
                                                "(~/.local/share/engram/memory when it is unset).");
  out += roff::section("FILES");
  out += roff::tagged(roff::italic("PREFIX/lib/engram/rules/"),
                      "The built-in rules, each a plugin, found beside the installed binary; "
                      "plugins.dirs in the configuration adds folders of other rules.");
  out += roff::section("SEE ALSO");
  out += roff::bold("engram.toml") + "(5), " + roff::bold("git") + "(1)\n";
  return out;
}

} // namespace

std::string command_manual(const CommandInfo& root) {
  std::string out = roff::header("ENGRAM", 1, k_version, "User Commands");
  out += roff::section("NAME");
  out += "engram \\- keep AI\\-agent memory folders healthy\n";
  out += roff::section("SYNOPSIS");
  out +=
      usage(root) + "\n.br\n" + roff::bold("engram help") + " [" + roff::italic("COMMAND") + "]\n";
  out += roff::section("DESCRIPTION");
  out += roff::text(root.description) + "\n";
  out += roff::paragraph("Each command below has --help, and engram help COMMAND prints the "
                         "same text; engram completion prints a shell's completion script.");
  out += roff::section("OPTIONS");
  for (const auto& option : root.options) {
    out += roff::tagged(option_tag(option), option_body(option));
  }
  out += roff::section("COMMANDS");
  for (const CommandInfo* command : flatten(root)) {
    if (!command->path.empty()) {
      out += command_section(*command);
    }
  }
  out += roff::section("JSON OUTPUT");
  for (const char* paragraph : k_json_convention) {
    out += roff::paragraph(paragraph);
  }
  out += exit_status();
  out += files_and_see_also();
  return out;
}

} // namespace engram::cli
