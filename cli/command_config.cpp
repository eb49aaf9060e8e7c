// `engram config show` (the effective configuration, as TOML that loads
// again) and `engram config keys` (every key with its type, default and help).
#include "cli/app.hpp"
#include "cli/store_selection.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>

namespace engram::cli {

namespace {

// What `engram config show` was asked to do.
struct ConfigShowOptions {
  std::optional<std::filesystem::path> store; // --store: show what applies to this store
};

// Runs `engram config show`.
int run_config_show(const Globals& globals, const ConfigShowOptions& options) {
  auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  if (options.store) {
    // One store's view: its effective settings as the global ones, so the
    // output is a configuration that gives any store exactly these values.
    const SelectedStore selected = select_store(*config, options.store);
    config::Config narrowed;
    narrowed.source = config->source;
    narrowed.global = selected.settings;
    config = std::move(narrowed);
  }
  fmt::print("{}", config::render_toml(*config));
  return k_exit_ok;
}

// Runs `engram config keys`; needs no configuration, so a broken one cannot hide the reference.
int run_keys() {
  fmt::print("{}", config::render_key_reference());
  return k_exit_ok;
}

} // namespace

void add_config_command(CLI::App& app, std::vector<Command>& commands) {
  CLI::App* config = app.add_subcommand("config", "Show the configuration or list its keys");
  config->require_subcommand(1);

  auto options = std::make_shared<ConfigShowOptions>();
  CLI::App* show = config->add_subcommand(
      "show", "Print the effective configuration as TOML (defaults included); the output is a "
              "valid --config file");
  add_store_option(*show, options->store);
  commands.push_back(
      {show, [options](const Globals& globals) { return run_config_show(globals, *options); }});

  CLI::App* keys = config->add_subcommand(
      "keys", "List every configuration key with its type, default and meaning");
  commands.push_back({keys, [](const Globals&) { return run_keys(); }});
}

} // namespace engram::cli
