// `engram config show` (the effective configuration, as TOML that loads
// again) and `engram config keys` (every key with its type, default and help).
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "cli/store_selection.hpp"
#include "config/key_table.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>

namespace engram::cli {

namespace {

// What `engram config show` was asked to do.
struct ConfigShowOptions {
  std::optional<std::filesystem::path> store; // --store: show what applies to this store
  bool json = false;                          // --json
};

// A value as JSON: TOML's types map one to one.
nlohmann::json value_json(const config::Value& value) {
  return std::visit([](const auto& held) { return nlohmann::json(held); }, value);
}

// A type's name in JSON output: the TOML type, in snake_case.
const char* type_name(config::Type type) {
  switch (type) {
  case config::Type::boolean:
    return "boolean";
  case config::Type::integer:
    return "integer";
  case config::Type::real:
    return "real";
  case config::Type::string:
    return "string";
  case config::Type::string_list:
    return "string_list";
  }
  return "string";
}

// Every key's value, by its dotted name.
nlohmann::json settings_json(const config::Settings& settings) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : settings.values()) {
    out[key] = value_json(value);
  }
  return out;
}

// The effective configuration as one JSON object; `store` is the one --store
// named, whose settings then are the ones shown.
nlohmann::json config_json(const config::Config& config,
                           const std::optional<SelectedStore>& store) {
  nlohmann::json stores = nlohmann::json::array();
  for (const auto& section : config.stores) {
    nlohmann::json overridden = nlohmann::json::object();
    for (const auto& key : section.overridden) {
      overridden[key] = value_json(section.settings.get(key));
    }
    stores.push_back(
        {{"path", section.path.string()},
         {"name", section.name.empty() ? nlohmann::json() : nlohmann::json(section.name)},
         {"profile", section.profile.empty() ? nlohmann::json() : nlohmann::json(section.profile)},
         {"overridden", overridden}});
  }
  return {
      {"source", config.source.empty() ? nlohmann::json() : nlohmann::json(config.source.string())},
      {"store", store ? nlohmann::json(store->root.string()) : nlohmann::json()},
      {"settings", settings_json(store ? store->settings : config.global)},
      {"stores", stores}};
}

// Runs `engram config show`.
int run_config_show(const Globals& globals, const ConfigShowOptions& options) {
  const Format format = format_of(options.json);
  auto config = load_config(globals, format);
  if (!config) {
    return k_exit_usage;
  }
  std::optional<SelectedStore> selected;
  if (options.store) {
    selected = select_store(*config, options.store);
  }
  if (format == Format::json) {
    print_json(config_json(*config, selected));
    return k_exit_ok;
  }
  if (selected) {
    // One store's view: its effective settings as the global ones, so the
    // output is a configuration that gives any store exactly these values.
    config::Config narrowed;
    narrowed.source = config->source;
    narrowed.global = selected->settings;
    config = std::move(narrowed);
  }
  fmt::print("{}", config::render_toml(*config));
  return k_exit_ok;
}

// Every key of the key table as one JSON object, grouped as the reference groups them.
nlohmann::json keys_json() {
  nlohmann::json tables = nlohmann::json::array();
  for (const auto& table : config::k_config_tables) {
    tables.push_back({{"name", table.name}, {"help", table.help}});
  }
  nlohmann::json keys = nlohmann::json::array();
  for (const auto& key : config::k_config_key_table) {
    keys.push_back({{"name", key.name},
                    {"table", config::table_of(key.name)},
                    {"type", type_name(key.type)},
                    {"default", value_json(key.default_value)},
                    {"min", key.min ? nlohmann::json(*key.min) : nlohmann::json()},
                    {"max", key.max ? nlohmann::json(*key.max) : nlohmann::json()},
                    {"per_store", key.scope == config::Scope::global_or_store},
                    {"help", key.help}});
  }
  return {{"tables", tables}, {"keys", keys}};
}

// Runs `engram config keys`; needs no configuration, so a broken one cannot hide the reference.
int run_keys(bool json) {
  if (json) {
    print_json(keys_json());
  } else {
    fmt::print("{}", config::render_key_reference());
  }
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
  show->add_flag("--json", options->json,
                 "Print the settings, their source and the stores as one JSON object");
  commands.push_back(
      {show, [options](const Globals& globals) { return run_config_show(globals, *options); }});

  auto keys_as_json = std::make_shared<bool>(false);
  CLI::App* keys = config->add_subcommand(
      "keys", "List every configuration key with its type, default and meaning");
  keys->add_flag("--json", *keys_as_json, "Print the keys as one JSON object");
  commands.push_back({keys, [keys_as_json](const Globals&) { return run_keys(*keys_as_json); }});
}

} // namespace engram::cli
