// `engram daemon`: keep stores consolidated as agents write to them, in the
// foreground (systemd and launchd supervise it; `make run` runs it in a
// terminal). The stores are those given with --store, else the configuration's
// `[[store]]`s, else the default store. With none it can keep, it exits with
// daemon::k_exit_nothing_to_keep, which its systemd unit does not restart; or,
// with --wait-for-store (the launchd agent, as launchd cannot be told not to
// restart), it waits for one.
#include "base/error.hpp"
#include "cli/app.hpp"
#include "cli/rule_plugins.hpp"
#include "daemon/daemon.hpp"
#include "daemon/log.hpp"
#include "daemon/service_files.hpp"
#include "daemon/wait_for_store.hpp"
#include "engine/recovery.hpp"
#include "plugins/host.hpp"
#include "watch/watcher.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <memory>
#include <optional>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace engram::cli {

namespace {

namespace fs = std::filesystem;

// What `engram daemon` was asked to do.
struct DaemonCommandOptions {
  std::vector<fs::path> stores; // --store, repeatable
  std::string log_file;         // --log-file; empty: stderr as it is
  bool wait_for_store = false;  // --wait-for-store
};

// How often a daemon waiting for a store reads its configuration again.
constexpr std::chrono::seconds k_store_check{30};

// Sends stdout and stderr to the end of `file` (a leading `~` is the home
// folder), creating its folder. launchd can only name a file per user in a
// plist, so the agent passes `~/…` and engram finds the user's own.
void log_to_file(const std::string& file) {
  const fs::path path = config::expand_home(file);
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  if (error) {
    throw Fatal("{}: cannot create the log's folder: {}", path.string(), error.message());
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw Fatal("{}: cannot open the log: {}", path.string(), std::strerror(errno));
  }
  std::fflush(stdout);
  std::fflush(stderr);
  ::dup2(fd, STDOUT_FILENO);
  ::dup2(fd, STDERR_FILENO);
  ::close(fd);
  // stderr is no longer the journal's, so lines need their own timestamps.
  ::unsetenv("JOURNAL_STREAM");
}

// A store's name in log lines: its `[[store]] name`, else its folder's name.
std::string store_name(const config::Config& config, const fs::path& root) {
  for (const auto& store : config.stores) {
    if (store.path == root && !store.name.empty()) {
      return store.name;
    }
  }
  return root.filename().empty() ? root.string() : root.filename().string();
}

// The stores to keep, each once, with their effective settings.
std::vector<daemon::StoreSpec> chosen_stores(const config::Config& config,
                                             const DaemonCommandOptions& options) {
  std::vector<fs::path> roots;
  if (!options.stores.empty()) {
    for (const auto& store : options.stores) {
      roots.push_back(config::normalise_path(store.string(), fs::current_path()));
    }
  } else if (!config.stores.empty()) {
    for (const auto& store : config.stores) {
      roots.push_back(store.path);
    }
  } else {
    roots.push_back(config::default_store_path());
  }
  std::vector<daemon::StoreSpec> specs;
  for (const auto& root : roots) {
    const bool seen = std::any_of(specs.begin(), specs.end(),
                                  [&](const daemon::StoreSpec& spec) { return spec.root == root; });
    if (!seen) {
      specs.push_back({root, store_name(config, root), config.settings_for(root)});
    }
  }
  return specs;
}

// Says what an interrupted run left and what recovery did with it.
void recover_store(const daemon::StoreSpec& store) {
  const auto recovery = engine::recover(store.root, store.settings);
  if (recovery.operation) {
    spdlog::warn("finished an interrupted {}{}", *recovery.operation,
                 recovery.commit ? " as " + recovery.commit->substr(0, 12) : std::string());
  }
  if (!recovery.removed_temporaries.empty()) {
    spdlog::info("removed {} temporary file(s) an interrupted run left",
                 recovery.removed_temporaries.size());
  }
  if (recovery.snapshot) {
    spdlog::info("committed the agent's changes made while no daemon watched as {}",
                 recovery.snapshot->commit.substr(0, 12));
  }
}

// Keeps the stores `config` names until stopped: the daemon's exit status, or
// nullopt when it could keep none of them.
std::optional<int> keep_stores(const config::Config& config, const Globals& globals,
                               const DaemonCommandOptions& options, bool level_given,
                               const plugins::Host& host) {
  daemon::DaemonOptions daemon_options;
  daemon_options.stores = chosen_stores(config, options);
  daemon_options.log_level_fixed = level_given;
  daemon_options.recover = recover_store;
  daemon_options.load_config = [file = globals.config_file] {
    return config::load_or_default(file);
  };
  daemon::Daemon keeper(std::move(daemon_options), daemon::engine_consolidator(host.slots()),
                        watch::make_watcher);
  try {
    return keeper.run();
  } catch (const Fatal& fatal) {
    if (!keeper.stores().empty()) {
      throw; // a failure while keeping stores: main reports it, and a restart may help
    }
    spdlog::error("{}", fatal.what());
    return std::nullopt;
  }
}

// True when the configuration, read again, names a store folder that exists.
bool store_appeared(const Globals& globals, const DaemonCommandOptions& options) {
  const auto config = config::load_or_default(globals.config_file);
  if (!config) {
    return false; // a configuration being edited: the next look may find it whole
  }
  const auto specs = chosen_stores(*config, options);
  return std::any_of(specs.begin(), specs.end(), [](const daemon::StoreSpec& spec) {
    std::error_code error;
    return fs::is_directory(spec.root, error);
  });
}

// Runs `engram daemon`.
int run_daemon(const Globals& globals, const DaemonCommandOptions& options,
               const CLI::Option* log_level_option) {
  if (!options.log_file.empty()) {
    log_to_file(options.log_file); // first, so configuration errors land in it too
  }
  auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  // --log-level wins, and keeps winning across reloads; else the configuration's.
  const bool level_given = log_level_option != nullptr && log_level_option->count() > 0;
  daemon::set_up_daemon_logging(spdlog::level::from_str(
      level_given ? globals.log_level : config->global.get_string("daemon.log_level")));
  spdlog::info("engram daemon starting (pid {}); configuration: {}", ::getpid(),
               config->source.empty() ? std::string("built-in defaults") : config->source.string());

  // Rules load once: a reload re-reads settings, but a new plugin needs a restart
  // (a shared library cannot be safely unloaded while objects from it may live).
  plugins::Host host;
  load_rule_plugins(host, *config);
  for (const auto& refused : host.refused()) {
    spdlog::warn("plugin refused: {}: {}", refused.path, refused.reason);
  }
  while (true) {
    if (const auto status = keep_stores(*config, globals, options, level_given, host)) {
      return *status;
    }
    if (!options.wait_for_store) {
      // Restarting cannot help until the configuration or the stores change,
      // so the status says so and the service does not retry.
      spdlog::error("nothing to keep: exiting with status {}, which the service does not "
                    "restart; fix the stores above, then start the daemon again",
                    daemon::k_exit_nothing_to_keep);
      return daemon::k_exit_nothing_to_keep;
    }
    spdlog::warn("nothing to keep: waiting for a store (the configuration is read again every "
                 "{} s, and on SIGHUP)",
                 std::chrono::duration_cast<std::chrono::seconds>(k_store_check).count());
    if (daemon::wait_for_store([&] { return store_appeared(globals, options); }, k_store_check) ==
        daemon::WaitEnd::stopped) {
      spdlog::info("stopped while waiting for a store");
      return k_exit_ok;
    }
    spdlog::info("a store to keep appeared; starting again");
    if (auto reloaded = config::load_or_default(globals.config_file)) {
      config = std::move(*reloaded);
    }
  }
}

} // namespace

void add_daemon_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<DaemonCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "daemon",
      "Keep stores consolidated as agents write to them, in the foreground: watch them, commit "
      "the agent's changes, run the rules when changes settle, when a guard is exceeded, when "
      "idle and daily. SIGTERM stops it cleanly, SIGHUP reloads the configuration.");
  command
      ->add_option("--store", options->stores,
                   "A store to keep; repeat for several (default: the configuration's "
                   "[[store]]s, else $XDG_DATA_HOME/engram/memory)")
      ->type_name("PATH");
  command
      ->add_option("--log-file", options->log_file,
                   "Append the log to FILE instead of stderr (a leading ~ is your home folder), "
                   "creating its folder; the launchd agent uses ~/Library/Logs/engram/engram.log")
      ->type_name("FILE");
  command->add_flag("--wait-for-store", options->wait_for_store,
                    "With no store it can keep, wait for one (the configuration is read again "
                    "every 30 s and on SIGHUP) instead of exiting with status 78; the launchd "
                    "agent uses it, as launchd restarts whatever exits with an error");
  // `engram daemon --config F --log-level L` reads as naturally as the other order.
  command->fallthrough();
  const CLI::Option* log_level_option = app.get_option_no_throw("--log-level");
  commands.push_back({command, [options, log_level_option](const Globals& globals) {
                        return run_daemon(globals, *options, log_level_option);
                      }});
}

} // namespace engram::cli
