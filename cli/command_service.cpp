// `engram service install|uninstall|render [--systemd|--launchd]`: write (or
// remove) the service file that runs `engram daemon` for this user — a
// systemd user unit or a launchd agent — with this binary's path and every
// store it keeps, and print the commands that turn it on (or off); `render`
// prints the file a package installs, which `cmake --install` uses. engram
// never runs systemctl or launchctl itself: the user decides when.
#include "base/error.hpp"
#include "base/platform.hpp"
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "daemon/service_files.hpp"
#include "engine/apply.hpp"
#include "git/repository.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <sstream>

namespace engram::cli {

namespace {

namespace fs = std::filesystem;

// What `engram service` was asked to do.
enum class ServiceAction { install, uninstall, render };

// What `engram service` was asked to do it with.
struct ServiceOptions {
  bool systemd = false;           // --systemd
  bool launchd = false;           // --launchd
  bool dry_run = false;           // --dry-run
  std::optional<fs::path> binary; // render --binary
  bool json = false;              // --json
};

// A folder from the environment, else `fallback` under the home folder.
fs::path env_folder(const char* name, const fs::path& home, const fs::path& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? fs::path(value) : home / fallback;
}

// The service manager asked for, else this platform's.
daemon::ServiceManager chosen_manager(const ServiceOptions& options) {
  return options.systemd   ? daemon::ServiceManager::systemd
         : options.launchd ? daemon::ServiceManager::launchd
                           : daemon::native_service_manager();
}

// The stores the daemon keeps with this configuration, as `engram daemon`
// chooses them: the configured ones, else the default store.
std::vector<fs::path> kept_stores(const config::Config& config) {
  std::vector<fs::path> stores;
  for (const auto& store : config.stores) {
    stores.push_back(store.path);
  }
  if (stores.empty()) {
    stores.push_back(config::default_store_path());
  }
  return stores;
}

// The parameters for this user and this binary.
daemon::ServiceParams service_params(const Globals& globals, const config::Config& config) {
  daemon::ServiceParams params;
  const auto binary = platform::executable_path();
  if (!binary) {
    throw Error("cannot find the engram binary's own path");
  }
  params.binary = *binary;
  params.home = config::expand_home("~");
  params.config_home = env_folder("XDG_CONFIG_HOME", params.home, ".config");
  if (globals.config_file) {
    params.config = fs::absolute(*globals.config_file);
  }
  // engram's data folder first, as in the packaged unit: the default store and
  // the histories of stores that live inside a project's own repository.
  params.write_paths.push_back(config::default_store_path().parent_path());
  for (const auto& store : kept_stores(config)) {
    params.write_paths.push_back(store);
  }
  return params;
}

// Prints, as `path: reason`, each folder the service's daemon must write but
// could not; returns those reasons, none when every folder is writable.
std::vector<std::string> unwritable(daemon::ServiceManager manager,
                                    const std::vector<fs::path>& folders) {
  std::vector<std::string> reasons;
  for (const auto& folder : folders) {
    if (auto reason = daemon::unwritable_reason(manager, folder)) {
      fmt::print(stderr, "{}\n", *reason);
      reasons.push_back(std::move(*reason));
    }
  }
  return reasons;
}

// Warns about each store the daemon would leave out because it is not a store
// yet; with none configured and no default store, the daemon would have
// nothing to keep at all.
void warn_missing_stores(const config::Config& config) {
  for (const auto& store : kept_stores(config)) {
    if (git::Repository::exists_at(store)) {
      continue;
    }
    if (config.stores.empty()) {
      fmt::print(stderr,
                 "warning: no [[store]] is configured and the default store {} does not exist: "
                 "the daemon would have nothing to keep and exit with status {}, which the "
                 "service does not restart; create it with `engram init {}` (or configure a "
                 "[[store]]), then start the service\n",
                 store.string(), daemon::k_exit_nothing_to_keep, store.string());
    } else {
      fmt::print(stderr,
                 "warning: {}: not a store yet, so the daemon leaves it out; create it with "
                 "`engram init {}`, then restart the service\n",
                 store.string(), store.string());
    }
  }
}

// A file's bytes, or nullopt when it does not exist.
std::optional<std::string> existing(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Prints commands, indented, after a heading.
void print_commands(const std::string& heading, const std::vector<std::string>& commands) {
  fmt::print("{}\n", heading);
  for (const auto& command : commands) {
    fmt::print("  {}\n", command);
  }
}

// The manager's name, as --systemd and --launchd spell it.
const char* manager_name(daemon::ServiceManager manager) {
  return manager == daemon::ServiceManager::launchd ? "launchd" : "systemd";
}

// What install or uninstall did (`done`: written, updated, unchanged,
// would_write, removed, would_remove or absent) as one JSON object, with the
// commands that finish the job.
void print_service_json(daemon::ServiceManager manager, const daemon::ServiceFile& file,
                        std::string_view done, const std::vector<std::string>& commands) {
  print_json({{"manager", manager_name(manager)},
              {"path", file.path.string()},
              {"done", done},
              {"content", file.content},
              {"commands", commands}});
}

// Runs `engram service install`.
int run_install(const Globals& globals, const ServiceOptions& options) {
  const Format format = format_of(options.json);
  const auto config = load_config(globals, format);
  if (!config) {
    return k_exit_usage;
  }
  const auto manager = chosen_manager(options);
  const daemon::ServiceParams params = service_params(globals, *config);
  // Refused before anything is written: a unit whose daemon cannot write a
  // store would fail at every write, long after the user stopped looking.
  if (const auto reasons = unwritable(manager, params.write_paths); !reasons.empty()) {
    const char* why = "no service file written; keep those stores elsewhere";
    fmt::print(stderr, "engram: {}\n", why);
    return report_failure(format, k_exit_usage, why, reasons);
  }
  warn_missing_stores(*config);
  const daemon::ServiceFile file = daemon::render_service(manager, params);
  const auto before = existing(file.path);
  const std::string_view done = options.dry_run          ? "would_write"
                                : before == file.content ? "unchanged"
                                : before                 ? "updated"
                                                         : "written";
  if (!options.dry_run && before != file.content) {
    engine::write_atomically(file.path, file.content);
  }
  if (format == Format::json) {
    print_service_json(manager, file, done, file.enable_commands);
    return k_exit_ok;
  }
  if (done == "would_write") {
    fmt::print("would write {}:\n\n{}\n", file.path.string(), file.content);
  } else if (done == "unchanged") {
    fmt::print("{} is already installed and up to date\n", file.path.string());
  } else {
    fmt::print("{} {}\n", done == "updated" ? "updated" : "wrote", file.path.string());
  }
  print_commands("enable and start it with:", file.enable_commands);
  return k_exit_ok;
}

// Runs `engram service uninstall`.
int run_uninstall(const Globals& globals, const ServiceOptions& options) {
  const Format format = format_of(options.json);
  const auto config = load_config(globals, format);
  if (!config) {
    return k_exit_usage;
  }
  const auto manager = chosen_manager(options);
  const daemon::ServiceFile file =
      daemon::render_service(manager, service_params(globals, *config));
  const std::string_view done = !fs::exists(file.path) ? "absent"
                                : options.dry_run      ? "would_remove"
                                                       : "removed";
  if (done == "removed") {
    fs::remove(file.path);
    // What `systemctl --user disable` would remove, which it cannot once the file is gone.
    std::error_code ignored;
    fs::remove(file.path.parent_path() / "default.target.wants" / file.path.filename(), ignored);
  }
  if (format == Format::json) {
    print_service_json(manager, file, done,
                       done == "absent" ? std::vector<std::string>() : file.disable_commands);
    return k_exit_ok;
  }
  if (done == "absent") {
    fmt::print("no service file at {}; nothing to uninstall\n", file.path.string());
    return k_exit_ok;
  }
  fmt::print("{} {}\n", done == "removed" ? "removed" : "would remove", file.path.string());
  print_commands("stop the running daemon with:", file.disable_commands);
  return k_exit_ok;
}

// Runs `engram service render`: the packaged file on stdout. It reads no
// configuration, since a package is for whoever runs it.
int run_render(const ServiceOptions& options) {
  const Format format = format_of(options.json);
  const fs::path binary = options.binary.value_or(fs::path());
  if (!binary.is_absolute()) {
    fmt::print(stderr, "{}: the binary must be given as an absolute path\n", binary.string());
    return report_failure(format, k_exit_usage,
                          binary.string() + ": the binary must be given as an absolute path");
  }
  const auto manager = chosen_manager(options);
  const auto file = daemon::render_service(manager, daemon::packaged_params(binary));
  if (format == Format::json) {
    print_json({{"manager", manager_name(manager)},
                {"path", file.path.string()},
                {"content", file.content}});
  } else {
    fmt::print("{}", file.content);
  }
  return k_exit_ok;
}

// The help line of each `engram service` action.
const char* action_help(ServiceAction action) {
  switch (action) {
  case ServiceAction::install:
    return "Write the service file for this user and its configured stores, and print the "
           "commands that enable it";
  case ServiceAction::uninstall:
    return "Remove the service file and print the commands that stop the daemon";
  case ServiceAction::render:
    return "Print the service file a package installs (for any user, the default data "
           "folder only): what `cmake --install` writes";
  }
  return "";
}

} // namespace

void add_service_command(CLI::App& app, std::vector<Command>& commands) {
  CLI::App* service = app.add_subcommand(
      "service", "Install or remove the user service (systemd unit or launchd agent) that runs "
                 "`engram daemon`");
  service->require_subcommand(1);
  service->fallthrough();
  for (const auto action :
       {ServiceAction::install, ServiceAction::uninstall, ServiceAction::render}) {
    auto options = std::make_shared<ServiceOptions>();
    const char* name = action == ServiceAction::install     ? "install"
                       : action == ServiceAction::uninstall ? "uninstall"
                                                            : "render";
    CLI::App* command = service->add_subcommand(name, action_help(action));
    auto* systemd = command->add_flag("--systemd", options->systemd,
                                      "A systemd user unit (the default on Linux)");
    auto* launchd =
        command->add_flag("--launchd", options->launchd, "A launchd agent (the default on macOS)");
    systemd->excludes(launchd);
    if (action == ServiceAction::render) {
      command->add_option("--binary", options->binary, "The engram the service runs")
          ->type_name("PATH")
          ->required();
    } else {
      command->add_flag("--dry-run", options->dry_run,
                        "Print what would be written or removed; change nothing");
    }
    command->add_flag("--json", options->json, "Print what was done as one JSON object");
    command->fallthrough();
    commands.push_back({command, [options, action](const Globals& globals) {
                          switch (action) {
                          case ServiceAction::install:
                            return run_install(globals, *options);
                          case ServiceAction::uninstall:
                            return run_uninstall(globals, *options);
                          case ServiceAction::render:
                            return run_render(*options);
                          }
                          return k_exit_usage;
                        }});
  }
}

} // namespace engram::cli
