// `engram service install|uninstall [--systemd|--launchd] [--dry-run]`: write
// (or remove) the service file that runs `engram daemon` for this user — a
// systemd user unit or a launchd agent — with this binary's path and the
// stores it may write, and print the commands that turn it on (or off).
// engram never runs systemctl or launchctl itself: the user decides when.
#include "base/error.hpp"
#include "cli/app.hpp"
#include "daemon/service_files.hpp"
#include "engine/apply.hpp"

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
struct ServiceOptions {
  bool systemd = false; // --systemd
  bool launchd = false; // --launchd
  bool dry_run = false; // --dry-run
};

// A folder from the environment, else `fallback` under the home folder.
fs::path env_folder(const char* name, const fs::path& home, const fs::path& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? fs::path(value) : home / fallback;
}

// The parameters for this user and this binary.
daemon::ServiceParams service_params(const Globals& globals, const config::Config& config) {
  daemon::ServiceParams params;
  std::error_code error;
  params.binary = fs::read_symlink("/proc/self/exe", error);
  if (error) {
    throw Error("cannot find the engram binary's own path: {}", error.message());
  }
  params.home = config::expand_home("~");
  params.config_home = env_folder("XDG_CONFIG_HOME", params.home, ".config");
  if (globals.config_file) {
    params.config = fs::absolute(*globals.config_file);
  }
  for (const auto& store : config.stores) {
    params.write_paths.push_back(store.path);
  }
  if (params.write_paths.empty()) {
    params.write_paths.push_back(config::default_store_path());
  }
  return params;
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

// Runs `engram service install` or `uninstall`.
int run_service(const Globals& globals, const ServiceOptions& options, bool install) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const auto manager = options.systemd   ? daemon::ServiceManager::systemd
                       : options.launchd ? daemon::ServiceManager::launchd
                                         : daemon::native_service_manager();
  const daemon::ServiceFile file =
      daemon::render_service(manager, service_params(globals, *config));
  const auto before = existing(file.path);

  if (!install) {
    if (!before) {
      fmt::print("no service file at {}; nothing to uninstall\n", file.path.string());
      return k_exit_ok;
    }
    if (options.dry_run) {
      fmt::print("would remove {}\n", file.path.string());
    } else {
      fs::remove(file.path);
      // What `systemctl --user disable` would remove, which it cannot once the file is gone.
      std::error_code ignored;
      fs::remove(file.path.parent_path() / "default.target.wants" / file.path.filename(), ignored);
      fmt::print("removed {}\n", file.path.string());
    }
    print_commands("stop the running daemon with:", file.disable_commands);
    return k_exit_ok;
  }

  if (options.dry_run) {
    fmt::print("would write {}:\n\n{}\n", file.path.string(), file.content);
  } else if (before == file.content) {
    fmt::print("{} is already installed and up to date\n", file.path.string());
  } else {
    if (!file.log_dir.empty()) {
      fs::create_directories(file.log_dir);
    }
    engine::write_atomically(file.path, file.content);
    fmt::print("{} {}\n", before ? "updated" : "wrote", file.path.string());
  }
  print_commands("enable and start it with:", file.enable_commands);
  return k_exit_ok;
}

} // namespace

void add_service_command(CLI::App& app, std::vector<Command>& commands) {
  CLI::App* service = app.add_subcommand(
      "service", "Install or remove the user service (systemd unit or launchd agent) that runs "
                 "`engram daemon`");
  service->require_subcommand(1);
  service->fallthrough();
  for (const bool install : {true, false}) {
    auto options = std::make_shared<ServiceOptions>();
    CLI::App* command = service->add_subcommand(
        install ? "install" : "uninstall",
        install ? "Write the service file for this user and print the commands that enable it"
                : "Remove the service file and print the commands that stop the daemon");
    auto* systemd = command->add_flag("--systemd", options->systemd,
                                      "A systemd user unit (the default on Linux)");
    auto* launchd =
        command->add_flag("--launchd", options->launchd, "A launchd agent (the default on macOS)");
    systemd->excludes(launchd);
    command->add_flag("--dry-run", options->dry_run,
                      "Print what would be written or removed; change nothing");
    command->fallthrough();
    commands.push_back({command, [options, install](const Globals& globals) {
                          return run_service(globals, *options, install);
                        }});
  }
}

} // namespace engram::cli
