// The `engram` command line: parses with CLI11, sets up logging, and hands
// over to the one subcommand that was named.
#include "cli/app.hpp"

#include "base/error.hpp"
#include "cli/json_output.hpp"

#include "engram_version.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <string_view>

namespace engram::cli {

namespace {

// What `engram --help` says after the option list.
constexpr const char* k_footer =
    R"(Exit status: 0 ok, 1 problems found or the command could not do its work,
2 usage or configuration error.
The configuration is TOML at $XDG_CONFIG_HOME/engram/config.toml unless --config
names another file; `engram config keys` lists every key.)";

// Sends engram's log to stderr, at the level --log-level asked for.
void set_up_logging(const std::string& level) {
  auto logger = std::make_shared<spdlog::logger>(
      "engram", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  logger->set_pattern("%n: %l: %v");
  logger->set_level(spdlog::level::from_str(level));
  spdlog::set_default_logger(std::move(logger));
}

// True when `--json` was given to `app` or to the subcommand of it that ran.
bool json_asked(const CLI::App& app) {
  const CLI::Option* json = app.get_option_no_throw("--json");
  if (json != nullptr && json->count() > 0) {
    return true;
  }
  for (const CLI::App* sub : app.get_subcommands()) {
    if (json_asked(*sub)) {
      return true;
    }
  }
  return false;
}

// Runs `command`. With --json, stdout holds one JSON value whatever the
// command did: a failure that only told people on stderr (an older path), or
// an error thrown out of the command, still prints {"error", "diagnostics"}.
int run_command(const Command& command, const Globals& globals) {
  if (!json_asked(*command.app)) {
    return command.run(globals);
  }
  int code = k_exit_problems;
  try {
    code = command.run(globals);
  } catch (const Error& error) {
    fmt::print(stderr, "engram: {}\n", error.what());
    return json_printed() ? k_exit_problems
                          : report_failure(Format::json, k_exit_problems, error.what());
  }
  if (code != k_exit_ok && !json_printed()) {
    report_failure(Format::json, code,
                   fmt::format("engram {} could not do its work (exit status {}); stderr says why",
                               command.app->get_name(), code));
  }
  return code;
}

} // namespace

std::optional<config::Config> load_config(const Globals& globals) {
  auto loaded = config::load_or_default(globals.config_file);
  if (!loaded) {
    for (const auto& problem : loaded.error()) {
      fmt::print(stderr, "{}\n", problem);
    }
    return std::nullopt;
  }
  spdlog::debug("configuration: {}", loaded->source.empty() ? std::string("built-in defaults")
                                                            : loaded->source.string());
  return std::move(loaded).value();
}

int run(int argc, char** argv) {
  CLI::App app{"engram keeps AI-agent memory folders healthy: it guards, decays, merges and "
               "indexes memory files, and commits every change to git.",
               "engram"};
  app.set_version_flag("--version", fmt::format("engram {}", k_version),
                       "Print the version and exit");
  app.footer(k_footer);
  app.require_subcommand(1);

  Globals globals;
  app.add_option("--config", globals.config_file,
                 "The configuration file (default: $XDG_CONFIG_HOME/engram/config.toml)")
      ->type_name("FILE");
  app.add_option("--log-level", globals.log_level, "How much to log to stderr")
      ->type_name("LEVEL")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();

  std::vector<Command> commands;
  add_init_command(app, commands);
  add_discover_command(app, commands);
  add_check_command(app, commands);
  add_status_command(app, commands);
  add_health_command(app, commands);
  add_config_command(app, commands);
  add_consolidate_command(app, commands);
  add_append_command(app, commands);
  add_recall_command(app, commands);
  add_feedback_command(app, commands);
  add_hook_command(app, commands);
  add_plugins_command(app, commands);
  add_log_command(app, commands);
  add_pack_command(app, commands);
  add_sync_command(app, commands);
  add_show_command(app, commands);
  add_rollback_command(app, commands);
  add_restore_command(app, commands);
  add_report_command(app, commands);
  add_daemon_command(app, commands);
  add_control_commands(app, commands);
  add_service_command(app, commands);
  add_completion_command(app, commands);
  add_manual_command(app, commands);
  add_help_command(app, commands);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version arrive here too, with a zero exit code.
    if (app.exit(error) == 0) {
      return k_exit_ok;
    }
    // A command line it cannot read may still have asked for JSON.
    const bool json = std::any_of(argv + 1, argv + argc,
                                  [](const char* arg) { return std::string_view(arg) == "--json"; });
    return report_failure(format_of(json), k_exit_usage, error.what());
  }

  set_up_logging(globals.log_level);
  for (const auto& command : commands) {
    if (command.app->parsed()) {
      return run_command(command, globals);
    }
  }
  fmt::print(stderr, "engram: no subcommand given; see engram --help\n");
  return k_exit_usage;
}

} // namespace engram::cli
