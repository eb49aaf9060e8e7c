// `engram manual engram|engram.toml`, hidden: prints a man page in roff. The
// build runs it to write the installed pages (cmake/Docs.cmake); people read
// them with man.
#include "cli/app.hpp"
#include "cli/command_tree.hpp"
#include "cli/manual.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>

namespace engram::cli {

void add_manual_command(CLI::App& app, std::vector<Command>& commands) {
  auto page = std::make_shared<std::string>();
  CLI::App* command =
      app.add_subcommand("manual", "Print the man page engram(1) or engram.toml(5) in roff");
  command->group(""); // hidden: the build's tool, not a user's
  command->add_option("PAGE", *page, "The page")
      ->required()
      ->check(CLI::IsMember({"engram", "engram.toml"}));
  const CLI::App* root = &app;
  commands.push_back({command, [root, page](const Globals&) {
                        fmt::print("{}", *page == "engram"
                                             ? command_manual(describe_commands(*root))
                                             : config_manual());
                        return k_exit_ok;
                      }});
}

} // namespace engram::cli
