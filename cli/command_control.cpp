// `engram pause`, `engram resume` and `engram reload`: ask the daemon that
// keeps a store, through its control socket, to stop or restart automatic
// consolidations, or to re-read its configuration (as SIGHUP does).
#include "base/error.hpp"
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "cli/store_selection.hpp"
#include "daemon/control_socket.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <memory>

namespace engram::cli {

namespace {

// How long a control request may take; these never wait for a consolidation.
constexpr std::chrono::seconds k_control_timeout{10};

// What a control command was asked to do.
struct ControlOptions {
  std::optional<std::filesystem::path> store; // --store
  bool json = false;                          // --json
};

// The daemon's reply as one JSON object: the store, the request, and for
// pause and resume whether automatic consolidations now wait.
void print_reply_json(const SelectedStore& selected, const std::string& request,
                      const nlohmann::json& reply) {
  print_json({{"store", selected.root.string()},
              {"request", request},
              {"paused", request == "reload" ? nlohmann::json()
                                             : nlohmann::json(reply.value("paused", false))}});
}

// Sends `request` to the daemon keeping the selected store and reports its reply.
int run_control(const Globals& globals, const ControlOptions& options, const std::string& request) {
  const Format format = format_of(options.json);
  const auto config = load_config(globals, format);
  if (!config) {
    return k_exit_usage;
  }
  const SelectedStore selected = select_store(*config, options.store);
  std::optional<nlohmann::json> reply;
  try {
    reply =
        daemon::ask(daemon::socket_path(selected.root), {{"request", request}}, k_control_timeout);
  } catch (const Error& error) {
    fmt::print(stderr, "engram: {}: {}\n", request, error.what());
    return report_failure(format, k_exit_problems, error.what());
  }
  if (!reply) {
    const auto why =
        fmt::format("no daemon keeps {}; start one with `engram daemon`", selected.root.string());
    fmt::print(stderr, "engram: {}: {}\n", request, why);
    return report_failure(format, k_exit_problems, why);
  }
  if (!reply->value("ok", false)) {
    std::vector<std::string> problems;
    for (const auto& problem : reply->value("errors", nlohmann::json::array())) {
      problems.push_back(problem.get<std::string>());
      fmt::print(stderr, "{}\n", problems.back());
    }
    const auto why = reply->value(
        "error", std::string("the configuration has errors; the daemon keeps the one in force"));
    fmt::print(stderr, "engram: {}: {}\n", request, why);
    return report_failure(format, k_exit_problems, why, problems);
  }
  if (format == Format::json) {
    print_reply_json(selected, request, *reply);
    return k_exit_ok;
  }
  if (request == "reload") {
    fmt::print("the daemon keeping {} reloaded its configuration\n", selected.root.string());
  } else {
    fmt::print("{} {}: automatic consolidations {}\n", selected.root.string(),
               reply->value("paused", false) ? "paused" : "resumed",
               reply->value("paused", false) ? "wait for `engram resume`" : "run again");
  }
  return k_exit_ok;
}

// Adds one control subcommand.
void add_control(CLI::App& app, std::vector<Command>& commands, const std::string& name,
                 const std::string& help) {
  auto options = std::make_shared<ControlOptions>();
  CLI::App* command = app.add_subcommand(name, help);
  add_store_option(*command, options->store);
  command->add_flag("--json", options->json, "Print the daemon's answer as one JSON object");
  commands.push_back({command, [options, name](const Globals& globals) {
                        return run_control(globals, *options, name);
                      }});
}

} // namespace

void add_control_commands(CLI::App& app, std::vector<Command>& commands) {
  add_control(app, commands, "pause",
              "Ask the daemon keeping a store to stop consolidating on its own (changes are still "
              "noted; `engram consolidate` still runs)");
  add_control(app, commands, "resume",
              "Ask the daemon keeping a store to consolidate on its own again");
  add_control(app, commands, "reload",
              "Ask the daemon keeping a store to re-read its configuration, as SIGHUP does; a bad "
              "configuration is reported and the one in force kept");
}

} // namespace engram::cli
