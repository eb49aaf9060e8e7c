// The `engram` command line: global options, the subcommand table, and what
// every subcommand shares (exit codes, loading the configuration).
#pragma once

#include "config/config.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
} // namespace CLI

namespace engram::cli {

// Success.
inline constexpr int k_exit_ok = 0;
// Problems found (diagnostics), or the command could not do its work.
inline constexpr int k_exit_problems = 1;
// A usage or configuration error: nothing was done.
inline constexpr int k_exit_usage = 2;

// The options that come before the subcommand.
struct Globals {
  std::optional<std::filesystem::path> config_file; // --config
  std::string log_level = "warn";                   // --log-level
};

// One subcommand: where CLI11 parsed it and what running it does.
struct Command {
  CLI::App* app = nullptr;
  std::function<int(const Globals&)> run;
};

// Adds `engram init` (create a store, or finish one) to `app`.
void add_init_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram check` (report every problem, change nothing) to `app`.
void add_check_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram status` (layers, guards, waiting decay, diagnostics) to `app`.
void add_status_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram health`: the health report, with what a dry run of the rules would do.
void add_health_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram config show` and `engram config keys` to `app`.
void add_config_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram consolidate` (run the rules now, apply and commit, or --dry-run) to `app`.
void add_consolidate_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram append` (the guarded write to working memory) to `app`.
void add_append_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram plugins` (the loaded and refused rule plugins) to `app`.
void add_plugins_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram daemon` (keep stores consolidated, in the foreground) to `app`.
void add_daemon_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram pause`, `resume` and `reload` (requests to a running daemon) to `app`.
void add_control_commands(CLI::App& app, std::vector<Command>& commands);

// Adds `engram service install|uninstall` (the systemd unit or launchd agent) to `app`.
void add_service_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram log` (the store's commits, newest first) to `app`.
void add_log_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram discover` (the agent memory folders on this machine) to `app`.
void add_discover_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram pack` (loose git objects into one pack) to `app`.
void add_pack_command(CLI::App& app, std::vector<Command>& commands);
void add_sync_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram show REV` (one commit's record and files) to `app`.
void add_show_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram rollback REV` (undo one commit with a new one) to `app`.
void add_rollback_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram restore REV -- PATH...` (files as they were at a commit) to `app`.
void add_restore_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram report` (an HTML page of how the store changed over time) to `app`.
void add_report_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram recall QUERY` (the memories that answer a query) to `app`.
void add_recall_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram feedback FILE --helpful|--unhelpful` (whether a memory helped) to `app`.
void add_feedback_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram hook session-start|user-prompt-submit|session-end` (agent hooks) to `app`.
void add_hook_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram help [COMMAND...]` (the text --help prints) to `app`; add it after every other.
void add_help_command(CLI::App& app, std::vector<Command>& commands);

// Adds `engram completion bash|zsh|fish` (a shell's completion script) to `app`.
void add_completion_command(CLI::App& app, std::vector<Command>& commands);

// Adds the hidden `engram manual engram|engram.toml` (a man page in roff) to `app`.
void add_manual_command(CLI::App& app, std::vector<Command>& commands);

// Loads the configuration named by --config, else the default one. When it is
// invalid, prints each problem as `file:line: message` and returns nullopt.
std::optional<config::Config> load_config(const Globals& globals);

// Parses the command line and runs the chosen subcommand; returns the exit code.
int run(int argc, char** argv);

} // namespace engram::cli
