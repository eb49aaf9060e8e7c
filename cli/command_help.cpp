// `engram help [COMMAND...]`: the same text as `engram [COMMAND...] --help`,
// for people who type help first.
#include "cli/app.hpp"
#include "cli/json_output.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>

namespace engram::cli {

namespace {

// Prints the help of the command `words` names under `root`; with `json`, as
// {"command", "help"}.
int run_help(const CLI::App& root, const std::vector<std::string>& words, bool json) {
  const CLI::App* command = &root;
  std::string name = root.get_name(); // "engram config": how CLI11 titles the help
  for (const auto& word : words) {
    const auto named = command->get_subcommands(
        [&](const CLI::App* sub) { return sub->get_name() == word && !sub->get_group().empty(); });
    if (named.empty()) {
      const auto why = fmt::format("{} has no command '{}'; see {} --help", name, word, name);
      fmt::print(stderr, "engram: help: {}\n", why);
      return report_failure(format_of(json), k_exit_usage, why);
    }
    command = named.front();
    name += " " + word;
  }
  // What --help prints: CLI11's formatter on this command, to stdout. (App::help
  // would describe the command parsed last, which is `help` itself.)
  const std::string help =
      command->get_formatter()->make_help(command, name, CLI::AppFormatMode::Normal);
  if (json) {
    print_json({{"command", name}, {"help", help}});
  } else {
    std::cout << help;
  }
  return k_exit_ok;
}

} // namespace

void add_help_command(CLI::App& app, std::vector<Command>& commands) {
  auto words = std::make_shared<std::vector<std::string>>();
  CLI::App* command =
      app.add_subcommand("help", "Print the help of engram or of a command (as --help does)");
  auto json = std::make_shared<bool>(false);
  command->add_option("COMMAND", *words, "The command, and its subcommand if it has some");
  command->add_flag("--json", *json, "Print the help as one JSON object {command, help}");
  const CLI::App* root = &app;
  commands.push_back({command, [root, words, json](const Globals&) {
                         return run_help(*root, *words, *json);
                       }});
}

} // namespace engram::cli
