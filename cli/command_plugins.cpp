// `engram plugins`: the rule plugins a consolidation would run — name, phase,
// versions, where each was loaded from — and every file that was refused, with
// the one-line reason. As text, or as JSON.
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "cli/rule_plugins.hpp"
#include "engine/engine.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace engram::cli {

namespace {

// What `engram plugins` was asked to do.
struct PluginsOptions {
  bool json = false; // --json
};

// The loaded rules in the order a consolidation runs them: phase, then name.
std::vector<plugins::LoadedPlugin> in_run_order(std::vector<plugins::LoadedPlugin> loaded) {
  std::stable_sort(loaded.begin(), loaded.end(), [](const auto& a, const auto& b) {
    return std::tie(a.phase, a.name) < std::tie(b.phase, b.name);
  });
  return loaded;
}

// The listing as JSON.
nlohmann::json to_json(const std::vector<std::filesystem::path>& folders,
                       const std::vector<plugins::LoadedPlugin>& loaded,
                       const std::vector<plugins::RefusedPlugin>& refused) {
  nlohmann::json out;
  out["folders"] = nlohmann::json::array();
  for (const auto& folder : folders) {
    out["folders"].push_back(folder.string());
  }
  out["rules"] = nlohmann::json::array();
  for (const auto& rule : loaded) {
    out["rules"].push_back({{"name", rule.name},
                            {"phase", std::string(engine::phase_name(rule.phase))},
                            {"version", rule.version},
                            {"sdk", rule.sdk_version},
                            {"lightweight", rule.lightweight},
                            {"path", rule.path},
                            {"description", rule.description}});
  }
  out["refused"] = nlohmann::json::array();
  for (const auto& file : refused) {
    out["refused"].push_back({{"path", file.path}, {"reason", file.reason}});
  }
  return out;
}

// Prints the listing for people.
void print_text(const std::vector<std::filesystem::path>& folders,
                const std::vector<plugins::LoadedPlugin>& loaded,
                const std::vector<plugins::RefusedPlugin>& refused) {
  fmt::print("Rule folders:\n");
  for (const auto& folder : folders) {
    fmt::print("  {}\n", folder.string());
  }
  fmt::print("\nLoaded rules ({}), in the order they run:\n", loaded.size());
  for (const auto& rule : loaded) {
    fmt::print("  {} {} ({} phase, {}, SDK {})\n", rule.name, rule.version,
               engine::phase_name(rule.phase), rule.lightweight ? "every run" : "full runs only",
               rule.sdk_version);
    if (!rule.description.empty()) {
      fmt::print("    {}\n", rule.description);
    }
    fmt::print("    from {}\n", rule.path);
  }
  if (!refused.empty()) {
    fmt::print("\nRefused ({}):\n", refused.size());
    for (const auto& file : refused) {
      fmt::print("  {}: {}\n", file.path, file.reason);
    }
  }
}

// Runs `engram plugins`.
int run_plugins(const Globals& globals, const PluginsOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const auto folders = rule_folders(*config);
  plugins::Host host;
  load_rule_plugins(host, *config);
  const auto loaded = in_run_order(host.loaded());
  if (options.json) {
    print_json(to_json(folders, loaded, host.refused()));
  } else {
    print_text(folders, loaded, host.refused());
  }
  return host.refused().empty() ? k_exit_ok : k_exit_problems;
}

} // namespace

void add_plugins_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<PluginsOptions>();
  CLI::App* command = app.add_subcommand(
      "plugins", "List the rule plugins that are loaded (name, phase, versions, file) and every "
                 "file that was refused, with why (exit 1 when any was).");
  command->add_flag("--json", options->json, "Print the listing as JSON");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_plugins(globals, *options); }});
}

} // namespace engram::cli
