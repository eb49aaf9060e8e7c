// Service files: the systemd user unit and the launchd agent plist, rendered
// from the templates in systemd/ and launchd/ (built into the binary) by one
// function, both for a package (`cmake --install`, any user) and for one user
// (`engram service install`, the configured stores), so the two cannot drift.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace engram::daemon {

// The service managers engram can be installed under.
enum class ServiceManager { systemd, launchd };

// The exit status of a daemon with no store it can keep. The unit lists it in
// RestartPreventExitStatus=, so a daemon waiting for configuration is not
// restarted every few seconds forever (78 is sysexits.h's EX_CONFIG).
inline constexpr int k_exit_nothing_to_keep = 78;

// Where the launchd agent's daemon logs; engram expands the `~` itself,
// because launchd expands nothing in a plist.
inline constexpr const char* k_launchd_log_file = "~/Library/Logs/engram/engram.log";

// What a rendered service file is made from.
struct ServiceParams {
  std::filesystem::path binary;                // the engram executable
  std::optional<std::filesystem::path> config; // --config to pass on, when not the default
  // The folders the daemon writes (systemd's ReadWritePaths=): engram's data
  // folder and the stores. `~/…` is the home folder of whoever runs the unit.
  std::vector<std::filesystem::path> write_paths;
  std::filesystem::path home;        // the user's home folder; empty for a package
  std::filesystem::path config_home; // $XDG_CONFIG_HOME, or ~/.config
};

// A service file ready to be written, and how to turn it on and off.
struct ServiceFile {
  std::filesystem::path path;                // where it goes
  std::string content;                       // its bytes
  std::vector<std::string> enable_commands;  // to run after installing
  std::vector<std::string> disable_commands; // to run before uninstalling
};

// The service manager of this platform: launchd on macOS, systemd elsewhere.
ServiceManager native_service_manager();

// The parameters of the files a package installs: `binary`'s daemon for any
// user, writing only engram's default data folder (the default store in it).
ServiceParams packaged_params(const std::filesystem::path& binary);

// Renders the service file for `manager` with `params`.
ServiceFile render_service(ServiceManager manager, const ServiceParams& params);

// Why the daemon run by `manager`'s service file could not write `store`,
// as `path: reason`; nullopt when it can. Under systemd, /tmp, /var/tmp and
// /dev are the daemon's own private copies and /proc and /sys the kernel's.
std::optional<std::string> unwritable_reason(ServiceManager manager,
                                             const std::filesystem::path& store);

// A path as one systemd unit-file word: `%` doubled, quoted when it has spaces.
std::string systemd_word(const std::string& text);


} // namespace engram::daemon
