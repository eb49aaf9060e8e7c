// `engram completion bash|zsh|fish`: the shell's completion script, written
// from the command line it completes.
#include "cli/app.hpp"
#include "cli/command_tree.hpp"
#include "cli/completion.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>

namespace engram::cli {

void add_completion_command(CLI::App& app, std::vector<Command>& commands) {
  auto shell = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand(
      "completion", "Print the completion script of a shell: bash, zsh or fish. The installed "
                    "package puts each where its shell looks; to try one, run "
                    "`source <(engram completion bash)`.");
  command->add_option("SHELL", *shell, "The shell")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  const CLI::App* root = &app;
  commands.push_back({command, [root, shell](const Globals&) {
                        const CommandInfo tree = describe_commands(*root);
                        fmt::print("{}", *shell == "bash"  ? bash_completion(tree)
                                         : *shell == "zsh" ? zsh_completion(tree)
                                                           : fish_completion(tree));
                        return k_exit_ok;
                      }});
}

} // namespace engram::cli
